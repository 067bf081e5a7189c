import { deflateSync, inflateSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { decodePDFRawStream, PDFDict, PDFDocument, PDFRawStream, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { openPdfBytes } from '../../../../lambdas/engine/core/load-pdf';
import { streamBytes } from '../../../../lambdas/engine/core/pdf-objects';
import { decodeStream, DEFAULT_DECODE_LIMITS, setDecodeLimits } from '../../../../lambdas/engine/core/stream-decode';
import { buildPdf } from '../../../support/pdf-fixtures';
import { zeroBomb } from '../guard/hostile-pdfs';

const MiB = 1024 * 1024;

afterEach(() => setDecodeLimits(DEFAULT_DECODE_LIMITS));

async function newContext(): Promise<PDFContext> {
  return (await PDFDocument.create()).context;
}

/** A stream as the parser makes it: raw bytes and a dictionary. */
function raw(context: PDFContext, dict: Record<string, unknown>, data: Uint8Array): PDFRawStream {
  return PDFRawStream.of(context.obj(dict as never) as unknown as PDFDict, data);
}

const text = (bytes: Uint8Array | null) => (bytes === null ? null : Buffer.from(bytes).toString('latin1'));

describe('decoding a stream', () => {
  it('inflates FlateDecode to the same bytes as pdf-lib', async () => {
    const context = await newContext();
    const content = 'BT /F1 12 Tf 72 720 Td (Hello) Tj ET\n'.repeat(500);
    const stream = raw(context, { Filter: 'FlateDecode' }, deflateSync(content));
    expect(text(streamBytes(stream))).toBe(content);
    expect(Buffer.from(streamBytes(stream)!)).toEqual(Buffer.from(decodePDFRawStream(stream).decode()));
  });

  it('hands out small decoded streams in a buffer of their own size, not a view of the decoder\'s 8 KB chunk', async () => {
    const context = await newContext();
    const form = 'q 1 0 0 1 0 0 cm /Im1 Do Q';
    const { bytes } = decodeStream(raw(context, { Filter: 'FlateDecode' }, deflateSync(form)));
    expect(text(bytes)).toBe(form);
    // A view of a zlib chunk would keep 8 KB alive for as long as the interpreter caches the form.
    expect(bytes!.buffer.byteLength).toBe(form.length);
  });

  it('applies a chain of filters in order, under their inline-image abbreviations as well', async () => {
    const context = await newContext();
    const hex = Buffer.from(deflateSync('0 0 m 100 100 l S')).toString('hex') + '>';
    expect(text(streamBytes(raw(context, { Filter: ['ASCIIHexDecode', 'FlateDecode'] }, Buffer.from(hex))))).toBe('0 0 m 100 100 l S');
    expect(text(streamBytes(raw(context, { Filter: ['AHx', 'Fl'] }, Buffer.from(hex))))).toBe('0 0 m 100 100 l S');
  });

  it('undoes PNG predictors the way a PNG encoder applied them (sharp’s adaptive row filters, all five types)', async () => {
    const context = await newContext();
    const used = new Set<number>();
    for (const [width, height, pixels] of [
      [37, 23, smoothPixels(37, 23)],
      [64, 40, bandedPixels(64, 40)],
    ] as const) {
      const png = await sharp(pixels, { raw: { width, height, channels: 3 } }).png({ adaptiveFiltering: true, compressionLevel: 9 }).toBuffer();
      const idat = idatData(png);
      for (let row = 0, rows = inflateSync(idat); row < height; row++) used.add(rows[row * (width * 3 + 1)]!);
      const stream = raw(context, { Filter: 'FlateDecode', DecodeParms: { Predictor: 15, Colors: 3, BitsPerComponent: 8, Columns: width } }, idat);
      expect(Buffer.from(streamBytes(stream)!)).toEqual(pixels);
    }
    expect([...used].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('undoes the TIFF predictor (horizontal differencing)', async () => {
    const context = await newContext();
    const rows = [
      [10, 20, 30, 40, 50, 60],
      [200, 100, 250, 5, 0, 255],
    ];
    // Two components per pixel: each byte minus the same component of the pixel to its left.
    const predicted = rows.flatMap((row) => row.map((v, i) => (i < 2 ? v : (v - row[i - 2]! + 256) & 0xff)));
    const stream = raw(
      context,
      { Filter: 'FlateDecode', DecodeParms: { Predictor: 2, Colors: 2, BitsPerComponent: 8, Columns: 3 } },
      deflateSync(Buffer.from(predicted)),
    );
    expect([...streamBytes(stream)!]).toEqual(rows.flat());
  });

  it('reads what a truncated Flate stream holds, and tolerates a wrong checksum', async () => {
    const context = await newContext();
    const content = Buffer.from('q 1 0 0 1 0 0 cm Q\n'.repeat(2000));
    const whole = deflateSync(content);
    const truncated = streamBytes(raw(context, { Filter: 'FlateDecode' }, whole.subarray(0, whole.length - 40)));
    expect(truncated!.length).toBeGreaterThan(content.length / 2);
    expect(Buffer.from(truncated!)).toEqual(content.subarray(0, truncated!.length));

    const badChecksum = Buffer.from(whole);
    badChecksum[badChecksum.length - 1]! ^= 0xff;
    expect(Buffer.from(streamBytes(raw(context, { Filter: 'FlateDecode' }, badChecksum))!)).toEqual(content);
  });

  it('decodes the streams of a document encrypted with an owner password only', async () => {
    const pdf = await openPdfBytes(await buildPdf({ pages: 1, encrypt: { ownerPassword: 'owner' } }));
    const contents = pdf.doc.getPage(0).node.Contents();
    const stream = contents instanceof PDFStream ? contents : pdf.doc.context.lookup(contents?.get(0));
    expect(text(streamBytes(stream as PDFStream))).toMatch(/BT[\s\S]*Tj[\s\S]*ET/);
  });

  it('says why a stream cannot be decoded: an image codec, or corrupt data', async () => {
    const context = await newContext();
    expect(decodeStream(raw(context, { Filter: 'DCTDecode' }, Buffer.from([0xff, 0xd8, 0xff])))).toEqual({ bytes: null, reason: 'unsupported' });
    expect(decodeStream(raw(context, { Filter: 'FlateDecode' }, Buffer.from('not deflate data at all')))).toEqual({ bytes: null, reason: 'corrupt' });
  });
});

describe('decompression bombs', () => {
  // How fast the cap is reached is for the benchmarks, which time every real-world file (bomb_giant.pdf
  // among them); a wall-clock bound here failed in a busy shared test worker. What must hold is that the
  // bomb is refused and charges nothing to the document's budget, so its other streams still decode.
  it('stop at 256 MB per stream by default: a 1 GiB Flate bomb of 1 MB is reported as too large and costs the document nothing', async () => {
    const context = await newContext();
    const bomb = zeroBomb(1024);
    expect(bomb.length).toBeLessThan(1.2 * MiB);
    expect(decodeStream(raw(context, { Filter: 'FlateDecode' }, bomb))).toEqual({ bytes: null, reason: 'stream-too-large' });
    expect(streamBytes(raw(context, { Filter: 'FlateDecode' }, zeroBomb(4)))?.length).toBe(4 * MiB);
  });

  it('decode a stream just under the cap', async () => {
    setDecodeLimits({ maxStreamBytes: 4 * MiB });
    const context = await newContext();
    expect(streamBytes(raw(context, { Filter: 'FlateDecode' }, zeroBomb(4)))?.length).toBe(4 * MiB);
    expect(decodeStream(raw(context, { Filter: 'FlateDecode' }, zeroBomb(5))).reason).toBe('stream-too-large');
  });

  it('stop in pdf-lib’s decoders too (RunLengthDecode: 2 bytes → 128)', async () => {
    setDecodeLimits({ maxStreamBytes: 1 * MiB });
    const context = await newContext();
    const runs = Buffer.alloc(2 * 20_000);
    for (let i = 0; i < runs.length; i += 2) runs[i] = 129; // repeat the next byte 128 times
    const stream = raw(context, { Filter: 'RunLengthDecode' }, Buffer.concat([runs, Buffer.from([128])]));
    expect(decodeStream(stream)).toEqual({ bytes: null, reason: 'stream-too-large' });
  });

  it('share a budget per document: once it is spent, further streams of that document are not decoded', async () => {
    setDecodeLimits({ maxStreamBytes: 4 * MiB, maxDocumentBytes: 3 * MiB });
    const context = await newContext();
    const oneMiB = () => raw(context, { Filter: 'FlateDecode' }, zeroBomb(1));
    expect([oneMiB(), oneMiB(), oneMiB()].map((s) => decodeStream(s).bytes?.length)).toEqual([MiB, MiB, MiB]);
    expect(decodeStream(oneMiB())).toEqual({ bytes: null, reason: 'document-budget' });
    const otherDocument = await newContext();
    expect(streamBytes(raw(otherDocument, { Filter: 'FlateDecode' }, zeroBomb(1)))?.length).toBe(MiB);
  });
});

/** Pixels an encoder filters with Sub and Paeth. */
function smoothPixels(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7 + ((i / 111) | 0) * 13) & 0xff;
  return pixels;
}

/** Bands of rows an encoder filters with None (noise), Up (repeats), Sub (ramps) and Average. */
function bandedPixels(width: number, height: number): Buffer {
  const pixels = Buffer.alloc(width * height * 3);
  const stride = width * 3;
  let seed = 1;
  const noise = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) & 0xff;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < stride; x++) {
      const i = y * stride + x;
      const band = y % 5;
      if (band === 0) pixels[i] = noise();
      else if (band === 1) pixels[i] = pixels[i - stride]!;
      else if (band === 2) pixels[i] = (x * 3) & 0xff;
      else if (band === 3) pixels[i] = (pixels[i - stride]! + (x >= 3 ? pixels[i - 3]! : 0)) >> 1;
      else pixels[i] = (x * y) & 0xff;
    }
  }
  return pixels;
}

/** The concatenated IDAT chunks of a PNG: a zlib stream of filtered rows. */
function idatData(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') parts.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return Buffer.concat(parts);
}
