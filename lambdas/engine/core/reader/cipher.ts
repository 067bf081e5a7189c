/**
 * pdf-lib's decryption (its CipherTransformFactory, for the Standard security
 * handler) for the lazy reader. The package does not export the class; the
 * only way to one is PDFDocument.load with a password, which makes the
 * factory and hands it to a second whole-file parse. So that call is made
 * with the parser replaced for its duration: the first "parse" returns a
 * context holding just the encryption dictionary and the file identifier, and
 * the second is where the factory is taken and the load stopped. Nothing is
 * parsed; the parser is put back whatever happens.
 *
 * The factory looks up the crypt filters each time it makes a transform, so
 * it is given a copy of the encryption dictionary, with everything it refers
 * to, in a context of its own. The document's copies are unreferenced once it
 * is decrypted, and autofix removes them before it writes; with a filter held
 * by reference (issue7665.pdf: /CF << /StdCF 8 0 R >>) the streams read after
 * that came out still encrypted.
 *
 * The file identifier: pdf-lib requires /ID to be an array of strings and
 * fails otherwise. Readers use an empty identifier when it is malformed
 * (pdf.js does), and so do we: the key is then computed from what is there.
 */
import { PDFArray, PDFContext, PDFDocument, PDFHexString, PDFObjectCopier, PDFParser, PDFString, type PDFDict, type PDFObject } from '@cantoo/pdf-lib';
import type { CipherFactory } from './object-parse';

const TAKEN = Symbol('cipher factory taken');

export async function cipherFactoryFor(encrypt: PDFDict, id: PDFObject | undefined, password: string): Promise<CipherFactory> {
  const stand = PDFContext.create();
  const own = PDFObjectCopier.for(encrypt.context, stand).copy(encrypt);
  stand.trailerInfo = { Encrypt: own, ID: stand.obj([PDFHexString.fromBytes(fileIdBytes(id))]) };
  let factory: CipherFactory | undefined;
  const original = PDFParser.forBytesWithOptions;
  PDFParser.forBytesWithOptions = ((...args: unknown[]) => {
    if (args[5]) {
      factory = args[5] as CipherFactory;
      throw TAKEN;
    }
    return { parseDocument: async () => stand } as unknown as PDFParser;
  }) as typeof original;
  try {
    await PDFDocument.load(new Uint8Array(0), { password, updateMetadata: false });
  } catch (e) {
    if (e !== TAKEN) throw e;
  } finally {
    PDFParser.forBytesWithOptions = original;
  }
  if (!factory) throw new Error('pdf-lib made no cipher factory');
  return factory;
}

/** The first file identifier's bytes; empty when /ID is missing or malformed. */
export function fileIdBytes(id: PDFObject | undefined): Uint8Array {
  const first = id instanceof PDFArray ? id.get(0) : id;
  if (first instanceof PDFString || first instanceof PDFHexString) return first.asBytes();
  return new Uint8Array(0);
}
