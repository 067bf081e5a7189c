/**
 * Bounds what pdf-lib decodes while it parses a whole file, which load-pdf.ts
 * does only as a last resort (the lazy reader in reader/ bounds its own
 * decoding). PDFDocument.load inflates
 * every object stream (/Type /ObjStm) and cross-reference stream (/Type /XRef)
 * it meets, with its own JavaScript inflater and no limit: one compressed
 * object stream of a megabyte can inflate to gigabytes before the file is even
 * open (a 1.5 GB bomb took 18 s and over 2 GB of memory). pdf-lib offers no
 * option for this, so its two factory functions are wrapped, once per process:
 *
 * - an object stream is decoded by stream-decode.ts (capped, and zlib is much
 *   faster) and handed to pdf-lib already decoded; one that passes a limit or
 *   cannot be decoded is skipped, and the objects it held read as absent;
 *   its /N (object count) is clamped to what the data can hold;
 * - a cross-reference stream is not decoded at all: pdf-lib parses its entries
 *   and then ignores them (it finds objects by scanning the file), but a
 *   hostile /Size or /Index makes it build billions of entries. The stream's
 *   dictionary (trailer keys: Root, Encrypt, Info, ID, Size) is still read.
 */
import { PDFArray, PDFName, PDFNumber, PDFObjectStreamParser, PDFRawStream, PDFXRefStreamParser } from '@cantoo/pdf-lib';
import { decodeStream } from './stream-decode';

let installed = false;

export function installParseLimits(): void {
  if (installed) return;
  installed = true;

  const objectStreamParser = PDFObjectStreamParser.forStream;
  PDFObjectStreamParser.forStream = (rawStream, shouldWaitForTick) => {
    const decoded = decodeStream(rawStream);
    if (decoded.bytes === null) return skipped as unknown as PDFObjectStreamParser;
    const dict = rawStream.dict.clone();
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('DecodeParms'));
    // Each entry of the header is two numbers and two separators at least.
    const count = dict.lookup(PDFName.of('N'));
    const most = Math.floor(decoded.bytes.length / 4);
    if (count instanceof PDFNumber && count.asNumber() > most) dict.set(PDFName.of('N'), PDFNumber.of(most));
    return objectStreamParser(PDFRawStream.of(dict, decoded.bytes), shouldWaitForTick);
  };

  const xrefStreamParser = PDFXRefStreamParser.forStream;
  PDFXRefStreamParser.forStream = (rawStream) => {
    const dict = rawStream.dict.clone();
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('DecodeParms'));
    dict.set(PDFName.of('Index'), PDFArray.withContext(dict.context));
    return xrefStreamParser(PDFRawStream.of(dict, new Uint8Array(0)));
  };
}

const skipped = { parseIntoContext: async (): Promise<void> => {} };
