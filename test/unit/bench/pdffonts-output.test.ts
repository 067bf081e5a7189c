/**
 * Reading `pdffonts` output (poppler 22.12), on rows captured from the pdfjs
 * corpus: the bench's font figure is only as good as this parser.
 */
import { describe, expect, it } from 'vitest';
import { parsePdffonts } from '../../bench/support/pdffonts-output';

const HEADER = [
  'name                                 type              encoding         emb sub uni object ID',
  '------------------------------------ ----------------- ---------------- --- --- --- ---------',
];
const table = (...rows: string[]) => [...HEADER, ...rows, ''].join('\n');

describe('parsePdffonts', () => {
  it('reads name, type, encoding, the three flags and the object id of a row', () => {
    const [row] = parsePdffonts(table('ABCDEE+Calibri                       TrueType          WinAnsi          yes yes no       5  0'));
    expect(row).toEqual({
      name: 'ABCDEE+Calibri',
      type: 'TrueType',
      encoding: 'WinAnsi',
      embedded: true,
      subset: true,
      toUnicode: false,
      objectNumber: 5,
      generation: 0,
    });
  });

  it('skips the header and the rule, and reads an empty table as no fonts', () => {
    expect(parsePdffonts(table())).toEqual([]);
  });

  it('reads a font written as a direct dictionary ([none] object id) with no object number', () => {
    const [row] = parsePdffonts(table('Courier                              Type 1            Standard         no  no  no  [none]'));
    expect(row).toMatchObject({ name: 'Courier', type: 'Type 1', embedded: false, objectNumber: null, generation: null });
  });

  it('reads a nameless Type 3 font ([none] name) as a null name', () => {
    const [row] = parsePdffonts(table('[none]                               Type 3            Custom           yes no  no       6  0'));
    expect(row).toMatchObject({ name: null, type: 'Type 3', embedded: true, objectNumber: 6 });
  });

  it('reads type names with spaces and parentheses whole, not as their shorter prefixes', () => {
    const rows = parsePdffonts(
      table(
        'MyriadPro-Regular                    Type 1C (OT)      WinAnsi          yes no  no      60  0',
        'KozMinPro6N-Regular                  CID Type 0        90ms-RKSJ-V      no  no  no  [none]',
        'XYZABC+NotoSansCJKjp                 CID Type 0C       Identity-H       yes yes yes     12  0',
        'ABCDEF+SimSun                        CID TrueType (OT) Identity-H       yes yes yes     14  0',
        'NUKKLY+NotoColorEmoji                unknown           Standard         no  yes yes     21  0',
      ),
    );
    expect(rows.map((r) => [r.type, r.encoding])).toEqual([
      ['Type 1C (OT)', 'WinAnsi'],
      ['CID Type 0', '90ms-RKSJ-V'],
      ['CID Type 0C', 'Identity-H'],
      ['CID TrueType (OT)', 'Identity-H'],
      ['unknown', 'Standard'],
    ]);
  });

  it('reads a row whose name is longer than its 36-character column and shifts the rest', () => {
    const rows = parsePdffonts(
      table(
        'IDJQBD+CourierNew,Bold-WinCharSetFFFF CID TrueType      Identity-H       yes yes yes     14  0',
        'ICCAMH+MathDesign-CH-Regular-Extension-10 Type 1            Builtin          yes yes no     172  0',
      ),
    );
    expect(rows).toMatchObject([
      { name: 'IDJQBD+CourierNew,Bold-WinCharSetFFFF', type: 'CID TrueType', embedded: true, objectNumber: 14 },
      { name: 'ICCAMH+MathDesign-CH-Regular-Extension-10', type: 'Type 1', encoding: 'Builtin', objectNumber: 172 },
    ]);
  });

  it('reads the generation number, and object numbers wider than the column', () => {
    const [row] = parsePdffonts(table('Helvetica                            Type 1            WinAnsi          no  no  no  12345678  3'));
    expect(row).toMatchObject({ objectNumber: 12345678, generation: 3 });
  });

  it('ignores lines that are not font rows (warnings mixed into the output)', () => {
    const rows = parsePdffonts(table('Syntax Error: Unknown font type', 'Arial                                TrueType          WinAnsi          no  no  no       9  0'));
    expect(rows.map((r) => r.name)).toEqual(['Arial']);
  });

  it('accepts Windows line ends', () => {
    expect(parsePdffonts(table('Arial                                TrueType          WinAnsi          no  no  no       9  0').replace(/\n/g, '\r\n'))).toHaveLength(1);
  });
});
