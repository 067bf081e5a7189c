/**
 * Implementation limits (lambdas/engine/validate/file-structure/limit-rules.ts;
 * PDF/A-1 6.1.12, PDF/A-2/3 6.1.13) on files written byte by byte.
 */
import { describe, expect, it } from 'vitest';
import { FILE_STRUCTURE_RULES } from '../../../../../lambdas/engine/validate/file-structure/rules';
import type { ValidationModel } from '../../../../../lambdas/engine/validate/model';
import { standardProfile } from '../../../../../lambdas/engine/validate/profiles';
import { failureOf, rawPdf, ruleIds } from './raw-pdf';

describe('implementation limits (PDF/A-1 6.1.12, PDF/A-2/3 6.1.13)', () => {
  it('a non-zero real closer to zero than ±1.175e-38 fails PDF/A-2; zero and small normal reals pass', async () => {
    const tiny = `0.${'0'.repeat(40)}1`;
    const f = await failureOf(rawPdf({ header: '%PDF-1.7', page: `/Foo ${tiny}` }), '2b', 'pdfa.limits.real-tiny');
    expect(f).toMatchObject({ clause: '6.1.13', examples: [{ objectNumber: 3, context: tiny }] });
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7', page: '/Foo [0.0 -0.000001 0.00000000000000000000000000000000000002]' }), '2b')).not.toContain('pdfa.limits.real-tiny');
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7', page: `/Foo ${tiny}` }), '3b')).toContain('pdfa.limits.real-tiny');
  });

  it('strings may hold 32767 bytes from PDF/A-2 and 65535 bytes in PDF/A-1', async () => {
    const string = (n: number) => rawPdf({ header: '%PDF-1.7', page: `/Foo (${'A'.repeat(n)})` });
    const f = await failureOf(string(32768), '2b', 'pdfa.limits.string');
    expect(f).toMatchObject({ clause: '6.1.13', examples: [{ objectNumber: 3 }] });
    expect(await ruleIds(string(32767), '2b')).not.toContain('pdfa.limits.string');
    expect(await ruleIds(string(40000), '1b')).not.toContain('pdfa.limits.string');
    expect(await failureOf(string(65536), '1b', 'pdfa.limits.string')).toMatchObject({ clause: '6.1.12' });
    // A hexadecimal string counts its bytes, two digits each.
    const hex = rawPdf({ header: '%PDF-1.7', page: `/Foo <${'41'.repeat(32768)}>` });
    expect(await ruleIds(hex, '2b')).toContain('pdfa.limits.string');
  });

  it('PDF/A-1: an array shall not hold more than 8191 elements', async () => {
    const array = (n: number) => rawPdf({ page: `/Foo [${'0 '.repeat(n)}]` });
    const f = await failureOf(array(8192), '1b', 'pdfa.limits.array');
    expect(f).toMatchObject({ clause: '6.1.12', examples: [{ objectNumber: 3 }] });
    expect(await ruleIds(array(8191), '1b')).not.toContain('pdfa.limits.array');
    expect(await ruleIds(array(8192), '2b')).not.toContain('pdfa.limits.array');
  });

  it('PDF/A-1: a dictionary shall not hold more than 4095 entries', async () => {
    const dict = (n: number) => rawPdf({ page: `/Foo << ${Array.from({ length: n }, (_, i) => `/K${i} 0`).join(' ')} >>` });
    const f = await failureOf(dict(4096), '1b', 'pdfa.limits.dictionary');
    expect(f).toMatchObject({ clause: '6.1.12', examples: [{ objectNumber: 3 }] });
    expect(await ruleIds(dict(4095), '1b')).not.toContain('pdfa.limits.dictionary');
  });

  it('PDF/A-2: every page boundary shall be between 3 and 14 400 units in each direction', async () => {
    const narrow = await failureOf(rawPdf({ header: '%PDF-1.7', mediaBox: '[0 0 2 792]' }), '2b', 'pdfa.limits.page-boundaries');
    expect(narrow).toMatchObject({ clause: '6.1.13', examples: [{ page: 1, context: 'MediaBox 2 × 792' }] });
    const wide = await failureOf(rawPdf({ header: '%PDF-1.7', page: '/CropBox [0 0 14401 792]' }), '3b', 'pdfa.limits.page-boundaries');
    expect(wide).toMatchObject({ clause: '6.1.13', examples: [{ page: 1, context: 'CropBox 14401 × 792' }] });
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7', mediaBox: '[0 0 3 14400]', page: '/TrimBox [0 0 3 3]' }), '2b')).not.toContain('pdfa.limits.page-boundaries');
    // An inherited MediaBox is judged as well.
    const inherited = rawPdf({ header: '%PDF-1.7', mediaBox: '[0 0 612 792]', objects: { 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 20000 792] >>', 3: '<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << >> >>' } });
    expect(await ruleIds(inherited, '2b')).toContain('pdfa.limits.page-boundaries');
  });

  it('PDF/A-2: a CropBox inherited from the page tree is judged, and a corner missing from a box counts as 0', async () => {
    const cropped = (box: string) => rawPdf({ header: '%PDF-1.7', objects: { 2: `<< /Type /Pages /Kids [3 0 R] /Count 1 /CropBox ${box} >>` } });
    const f = await failureOf(cropped('[0 0 2 2]'), '2b', 'pdfa.limits.page-boundaries');
    expect(f).toMatchObject({ clause: '6.1.13', examples: [{ page: 1, context: 'CropBox 2 × 2' }] });
    expect(await ruleIds(cropped('[0 0 3 3]'), '2b')).not.toContain('pdfa.limits.page-boundaries');
    // veraPDF reads a missing corner as 0: a three-number MediaBox has no height.
    expect(await failureOf(rawPdf({ header: '%PDF-1.7', mediaBox: '[0 0 612]' }), '2b', 'pdfa.limits.page-boundaries')).toMatchObject({ examples: [{ context: 'MediaBox 612 × 0' }] });
  });

  it('values in every content stream a reader runs are judged: an appearance stream without /Subtype, a Type 3 glyph of a direct font', async () => {
    const stream = (content: string, dict = '') => `<< /Length ${content.length} ${dict} >>\nstream\n${content}\nendstream`;
    const appearance = (x: string) =>
      rawPdf({ page: '/Annots [6 0 R]', objects: { 6: '<< /Type /Annot /Subtype /Square /Rect [0 0 10 10] /F 4 /AP << /N 7 0 R >> >>', 7: stream(`${x} 0 m 1 1 l S`, '/BBox [0 0 10 10]') } });
    expect(await failureOf(appearance('40000.5'), '1b', 'pdfa.limits.real')).toMatchObject({ clause: '6.1.12', examples: [{ objectNumber: 7, context: '40000.5' }] });
    expect(await ruleIds(appearance('30000.5'), '1b')).not.toContain('pdfa.limits.real');
    const type3 = '/Type /Font /Subtype /Type3 /FontBBox [0 0 1 1] /FontMatrix [1 0 0 1 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1]';
    const glyph = (x: string) =>
      rawPdf({ objects: { 3: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /T3 << ${type3} >> >> >> >>`, 4: stream('BT /T3 1 Tf (a) Tj ET'), 6: stream(`1 0 d0 ${x} 0 m 1 1 l S`) } });
    expect(await ruleIds(glyph('40000.5'), '1b')).toContain('pdfa.limits.real');
    expect(await ruleIds(glyph('30000.5'), '1b')).not.toContain('pdfa.limits.real');
  });

  it('a CID shall not exceed 65 535: every cidrange and cidchar of an embedded CMap counts, even one a later entry overrides', async () => {
    const stream = (content: string, dict = '') => `<< /Length ${content.length} ${dict} >>\nstream\n${content}\nendstream`;
    const system = '/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >>';
    const withCMap = (mappings: string) =>
      rawPdf({
        header: '%PDF-1.7',
        objects: {
          3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F0 6 0 R >> >> >>',
          4: stream('BT /F0 12 Tf <0001> Tj ET'),
          6: '<< /Type /Font /Subtype /Type0 /BaseFont /Foo /Encoding 7 0 R /DescendantFonts [8 0 R] >>',
          7: stream(`begincmap 1 begincodespacerange <0000> <FFFF> endcodespacerange ${mappings} endcmap`, `/Type /CMap /CMapName /X ${system}`),
          8: `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Foo ${system} /FontDescriptor 9 0 R >>`,
          9: '<< /Type /FontDescriptor /FontName /Foo /Flags 4 /FontBBox [0 0 1 1] /ItalicAngle 0 /Ascent 1 /Descent 0 /CapHeight 1 /StemV 1 >>',
        },
      });
    expect(await ruleIds(withCMap('1 begincidrange <0000> <FFFF> 0 endcidrange'), '2b')).not.toContain('pdfa.limits.cid');
    expect(await failureOf(withCMap('1 begincidrange <0000> <FFFF> 1 endcidrange'), '2b', 'pdfa.limits.cid')).toMatchObject({ clause: '6.1.13', examples: [{ objectNumber: 7, context: 'CMap of font Foo maps to CID 65536' }] });
    expect(await ruleIds(withCMap('1 begincidrange <0000> <0002> 65534 endcidrange 1 begincidchar <0002> 5 endcidchar'), '1b')).toContain('pdfa.limits.cid');
  });

  it('a file shall not hold more than 8,388,607 indirect objects', () => {
    // Writing that many objects would take hundreds of megabytes: the rule is
    // exercised on a model whose parser reports the count.
    const rule = FILE_STRUCTURE_RULES.find((r) => r.id === 'pdfa.limits.indirect-objects')!;
    expect(rule.clauses).toEqual({ 1: '6.1.12', 2: '6.1.13', 3: '6.1.13' });
    const model = (count: number) => {
      const memo = new Map<symbol, unknown>();
      return {
        memo: (key: symbol, compute: () => unknown) => (memo.has(key) ? memo.get(key) : (memo.set(key, compute()), memo.get(key))),
        context: { enumerateIndirectObjects: () => ({ length: count }) },
      } as unknown as ValidationModel;
    };
    expect(rule.test(model(8_388_608), standardProfile('2b'))).toEqual({ checked: 1, failures: [{ context: '8388608 indirect objects' }] });
    expect(rule.test(model(8_388_607), standardProfile('1b')).failures).toEqual([]);
  });

  it('a small real file passes the indirect object limit', async () => {
    expect(await ruleIds(rawPdf(), '1b')).not.toContain('pdfa.limits.indirect-objects');
  });
});
