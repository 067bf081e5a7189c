import { PDFDocument, PDFName } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { operations } from '../../../../lambdas/engine/core/content-lexer';
import { nameToken, numberToken, operationText, shortNumber, stringToken, withContent } from '../../../../lambdas/engine/core/content-writer';
import { inlineImageSpansOf } from '../../../../lambdas/engine/core/inline-images';
import { decodeStream } from '../../../../lambdas/engine/core/pdf-objects';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const ops = (b: Uint8Array) => [...operations(b)];

describe('numberToken: the one number writer for content', () => {
  it('writes integers and ordinary decimals as JavaScript does', () => {
    expect(numberToken(0)).toBe('0');
    expect(numberToken(-12)).toBe('-12');
    expect(numberToken(72.5)).toBe('72.5');
    expect(numberToken(-0.25)).toBe('-0.25');
    expect(numberToken(-0)).toBe('0');
  });

  it('never writes an exponent (PDF has none), and keeps tiny values instead of turning them into 0', () => {
    expect(numberToken(1e-7)).toBe('0.0000001');
    expect(numberToken(-1.25e-8)).toBe('-0.0000000125');
    expect(numberToken(1.5e21)).toBe('1500000000000000000000');
    expect(numberToken(1e21)).toBe('1000000000000000000000');
    expect(numberToken(1.2345e22)).toBe('12345000000000000000000');
  });

  it('is exact: every finite value reads back as itself, with no exponent', () => {
    for (const v of [1e-7, 3.0000000000000004e-7, 0.30000000000000004, 1 / 3, -2 / 3, 123456.789, 1.5e21, 9.87654321e-12, 5e-324, Number.MAX_SAFE_INTEGER]) {
      const t = numberToken(v);
      expect(t).not.toMatch(/e/i);
      expect(Number(t)).toBe(v);
    }
  });

  it('writes 0 for values a content stream cannot hold', () => {
    expect(numberToken(Number.NaN)).toBe('0');
    expect(numberToken(Number.POSITIVE_INFINITY)).toBe('0');
  });

  it('shortNumber rounds computed values to 4 decimals before writing them exactly', () => {
    expect(shortNumber(0.30000000000000004)).toBe('0.3');
    expect(shortNumber(1 / 3)).toBe('0.3333');
    expect(shortNumber(1e-7)).toBe('0');
    expect(shortNumber(-0.00001)).toBe('0');
    expect(shortNumber(-12.34567)).toBe('-12.3457');
  });
});

describe('tokens and operations', () => {
  it('escapes names and strings so the lexer reads back the same values', () => {
    expect(nameToken('A B#(x)')).toBe('/A#20B#23#28x#29');
    expect(stringToken(Uint8Array.from([0x28, 0x41, 0x5c, 0x29, 0x0a, 0xff]))).toBe('(\\(A\\\\\\)\\012\\377)');
    const src = bytes('/Span <</ActualText <FEFF0041> /N [1 2.5 /A#20B]>> BDC [(x\\)) -120 <00ff>] TJ 1e-7 0 0 1 0 0 cm true null d0');
    const again = ops(bytes(ops(src).map(operationText).join('\n')));
    expect(again).toEqual(ops(src));
    expect(operationText(ops(src)[2]!)).toBe('0.0000001 0 0 1 0 0 cm');
  });
});

describe('inlineImageSpansOf', () => {
  const image = 'BI /W 4 /H 1 /BPC 8 /CS /G ID \x00EI\x01 EI';

  it('locates each inline image byte for byte, data that looks like EI included', () => {
    const b = bytes(`q (BI in a string) Tj ${image} Q % BI in a comment\n${image}`);
    const spans = inlineImageSpansOf(b, ops(b))!;
    expect(spans).toHaveLength(2);
    for (const s of spans) expect(Buffer.from(b.subarray(s.start, s.end)).toString('latin1')).toBe(image);
  });

  it('gives no spans for a stream without inline images, and null when it cannot find every image the lexer read', () => {
    const plain = bytes('0 g 0 0 10 10 re f');
    expect(inlineImageSpansOf(plain, ops(plain))).toEqual([]);
    const one = bytes(image);
    const two = bytes(`${image} ${image}`);
    expect(inlineImageSpansOf(one, ops(two))).toBeNull();
  });
});

describe('withContent', () => {
  it('keeps the dictionary entries that describe the object, and replaces the encoding and the bytes', async () => {
    const doc = await PDFDocument.create();
    const ctx = doc.context;
    const old = ctx.stream('0 g', { Type: 'XObject', Subtype: 'Form', BBox: [0, 0, 10, 10], Filter: 'ASCIIHexDecode', DecodeParms: {}, DL: 3 });
    const fresh = withContent(ctx, old, bytes('1 g'));
    expect(fresh.dict.get(PDFName.of('Subtype'))).toBe(PDFName.of('Form'));
    expect(fresh.dict.has(PDFName.of('BBox'))).toBe(true);
    expect(fresh.dict.get(PDFName.of('Filter'))).toBe(PDFName.of('FlateDecode'));
    expect(fresh.dict.has(PDFName.of('DecodeParms'))).toBe(false);
    expect(fresh.dict.has(PDFName.of('DL'))).toBe(false);
    expect(Buffer.from(decodeStream(fresh).bytes!).toString('latin1')).toBe('1 g');
  });
});
