/**
 * The window parser's own token readers (lambdas/engine/core/reader/window-parser.ts)
 * read what pdf-lib's parser reads: for each object text, the same object
 * (written out the same way), the same end position, and a refusal where
 * pdf-lib refuses, so that the lenient second try starts where it always did.
 */
import { PDFArray, PDFContext, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFPageLeaf, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { WindowParser } from '../../../../../lambdas/engine/core/reader/window-parser';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));

type Outcome = { written: string; end: number; type: string } | { refused: true };

/** What a parser makes of `text`: the object as PDF text, where it stopped, its class; or a refusal. */
function outcome(parse: (b: Uint8Array) => { object: () => PDFObject; offset: () => number }, text: string): Outcome {
  const p = parse(bytes(text));
  try {
    const object = p.object();
    return { written: String(object), end: p.offset(), type: object.constructor.name };
  } catch {
    return { refused: true };
  }
}

const ours = (text: string) =>
  outcome((b) => {
    const parser = new WindowParser(b, PDFContext.create(), 0, (d) => d, undefined);
    return { object: () => parser.parseObject(), offset: () => parser.cursor.offset() };
  }, text);

const pdfLibs = (text: string) =>
  outcome((b) => {
    const parser = PDFObjectParser.forBytes(b, PDFContext.create());
    return { object: () => parser.parseObject(), offset: () => (parser as unknown as { bytes: { offset(): number } }).bytes.offset() };
  }, text);

const SAME_AS_PDF_LIB = [
  // numbers in every spelling pdf-lib accepts
  '0', '42', '-17', '+5', '3.25', '-.5', '.5', '5.', '007', '-0', '0.000001', '123456789012345', '1234567890123456789', '4095', '4096', '-1',
  // and what it refuses or reads partly
  '-', '.', '--5', '1-2', '1.2.3', '+-3', '1e5',
  // references and what merely looks like one
  '12 0 R', '12 5 R', '12  0\n R', '12 0', '12 0 obj', '1 2 3 R', '12 %c\n0 R', '4194304 0 R',
  // names
  '/Type', '/A#20B', '/a#2fb', '/Lab#2523', '/', '/Name(', '/N1/N2', '/Ünï',
  // keywords
  'true', 'false', 'null', 'trueish', 'nul', 'xyz',
  // strings and hex strings (pdf-lib's own readers)
  '(a (nested) string)', '(esc\\) aped)', '<48656c6c6f>', '<4 8 6>',
  // arrays and dictionaries
  '[1 2 3 R /X (s) <41> [true] << /K 1 >>]', '[ ]', '[1 2', '<< >>', '<</A 1/B/C/D[1 2]>>', '<< /A 1 % comment\n /B 2 >>',
  '<< /Type /Page /MediaBox [0 0 612 792] >>', '<< /Type /Pages /Kids [] /Count 0 >>', '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /A 1 >', '<< /A 1', '<< 1 2 >>', '<< /A >>', '<</A 1>>trailing', '  %lead\n  << /A 1 >>',
];

describe('the window parser reads objects as pdf-lib does', () => {
  it.each(SAME_AS_PDF_LIB)('%j', (text) => {
    expect(ours(text)).toEqual(pdfLibs(text));
  });

  it('hands out the interned objects: the same PDFName, PDFRef and small PDFNumber as pdf-lib makes', () => {
    const parser = new WindowParser(bytes('<< /Type /Page /Parent 7 0 R /Rotate 90 /UserUnit 2.5 >>'), PDFContext.create(), 0, (d) => d, undefined);
    const dict = parser.parseObject() as PDFDict;
    expect(dict).toBeInstanceOf(PDFPageLeaf);
    expect(dict.get(PDFName.of('Type'))).toBe(PDFName.of('Page'));
    expect(dict.get(PDFName.of('Parent'))).toBe(PDFRef.of(7));
    expect((dict.get(PDFName.of('Rotate')) as PDFNumber).asNumber()).toBe(90);
    expect(String(dict.get(PDFName.of('UserUnit')))).toBe('2.5');
  });

  it('tells apart names whose bytes hash alike (/Aa and /BB)', () => {
    const array = new WindowParser(bytes('[/Aa /BB /Aa /BB /Type]'), PDFContext.create(), 0, (d) => d, undefined).parseObject() as PDFArray;
    expect(array.asArray()).toEqual([PDFName.of('Aa'), PDFName.of('BB'), PDFName.of('Aa'), PDFName.of('BB'), PDFName.of('Type')]);
  });

  it('reads an object header and refuses what is none', () => {
    const header = (text: string) => new WindowParser(bytes(text), PDFContext.create(), 0, (d) => d, undefined).header();
    expect(header('12 0 obj << >>')).toEqual({ num: 12, gen: 0 });
    expect(header(' %c\n7\r\n3 obj')).toEqual({ num: 7, gen: 3 });
    expect(header('12 0 ob')).toBeNull();
    expect(header('12x 0 obj')).toBeNull();
    expect(header('-1 0 obj')).toBeNull();
    expect(header('12 obj')).toBeNull();
  });

  it('a large array of mixed tokens comes out element for element', () => {
    const text = `[${Array.from({ length: 500 }, (_, i) => (i % 3 === 0 ? `${i} 0 R` : i % 3 === 1 ? `/N${i}` : `${i / 7}`)).join(' ')}]`;
    const array = new WindowParser(bytes(text), PDFContext.create(), 0, (d) => d, undefined).parseObject() as PDFArray;
    expect(array.size()).toBe(500);
    expect(ours(text)).toEqual(pdfLibs(text));
  });
});
