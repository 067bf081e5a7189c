/**
 * File structure rules not covered elsewhere: trailers of linearized files and
 * the PDF/A-4 document information dictionary (6.1.3), cross-reference tables
 * of PDF/A-1 (6.1.4), implementation limits (PDF/A-1 6.1.12, PDF/A-2/3
 * 6.1.13) and the DocMDP signature references (PDF/A-2/3 6.1.12). The syntax
 * under test is what a PDF writer library normalises away, so each fixture is
 * written byte by byte.
 */
import { describe, expect, it } from 'vitest';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { FILE_STRUCTURE_RULES } from '../../../../../lambdas/engine/validate/file-structure/rules';
import type { ValidationModel } from '../../../../../lambdas/engine/validate/model';
import { standardProfile } from '../../../../../lambdas/engine/validate/profiles';
import { tempFiles } from '../../temp-files';

const files = tempFiles('file-structure-remaining');

const ID_A = '<0123456789ABCDEF0123456789ABCDEF>';
const ID_B = '<FEDCBA9876543210FEDCBA9876543210>';

interface RawPdf {
  header?: string;
  /** Object bodies by number, replacing or adding to the defaults (1 catalog, 2 pages, 3 page, 4 content, 5 font). */
  objects?: Record<number, string>;
  /** Extra catalog entries. */
  catalog?: string;
  /** Extra page entries. */
  page?: string;
  /** The page's MediaBox (default [0 0 612 792]). */
  mediaBox?: string;
  /** Extra trailer entries. */
  trailer?: string;
  /** The catalog's object number (default 1). */
  root?: number;
  /** The trailer's ID array (default two copies of ID_A). */
  id?: string;
  /** Writes the first-subsection header "first count" with this separator. */
  subsectionSeparator?: string;
  /** Writes a cross-reference stream instead of a table and trailer. */
  xrefStream?: boolean;
  /** Appends an incremental-update section whose trailer carries this ID array. */
  updateId?: string;
}

/** A small one-page PDF written byte by byte, with a correct cross-reference section. */
function rawPdf(spec: RawPdf = {}): Uint8Array {
  const content = 'q 0 0 10 10 re f Q';
  const objects: Record<number, string> = {
    1: `<< /Type /Catalog /Pages 2 0 R ${spec.catalog ?? ''} >>`,
    2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    3: `<< /Type /Page /Parent 2 0 R /MediaBox ${spec.mediaBox ?? '[0 0 612 792]'} /Contents 4 0 R /Resources << >> ${spec.page ?? ''} >>`,
    4: `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    ...spec.objects,
  };
  const max = Math.max(...Object.keys(objects).map(Number));
  let out = `${spec.header ?? '%PDF-1.4'}\n%\xe2\xe3\xcf\xd3\n`;
  const offsets: number[] = [];
  for (let n = 1; n <= max; n++) {
    if (objects[n] === undefined) continue;
    offsets[n] = out.length;
    out += `${n} 0 obj\n${objects[n]}\nendobj\n`;
  }
  const trailerEntries = `/Root ${spec.root ?? 1} 0 R /ID [${spec.id ?? `${ID_A} ${ID_A}`}] ${spec.trailer ?? ''}`;
  const xref = out.length;
  if (spec.xrefStream) {
    // ISO 32000-1 7.5.8: one entry per object, W [1 4 2]; the stream itself is object max + 1.
    const self = max + 1;
    offsets[self] = xref;
    const rows: number[] = [0, 0, 0, 0, 0, 0xff, 0xff];
    for (let n = 1; n <= self; n++) {
      const o = offsets[n] ?? 0;
      rows.push(offsets[n] === undefined ? 0 : 1, (o >>> 24) & 255, (o >>> 16) & 255, (o >>> 8) & 255, o & 255, 0, 0);
    }
    const data = Buffer.from(rows).toString('latin1');
    out += `${self} 0 obj\n<< /Type /XRef /Size ${self + 1} /W [1 4 2] /Length ${data.length} ${trailerEntries} >>\nstream\n${data}\nendstream\nendobj\n`;
    out += `startxref\n${xref}\n%%EOF\n`;
    return Uint8Array.from(Buffer.from(out, 'latin1'));
  }
  out += `xref\n0${spec.subsectionSeparator ?? ' '}${max + 1}\n0000000000 65535 f \n`;
  for (let n = 1; n <= max; n++) {
    const free = offsets[n] === undefined;
    out += `${String(free ? 0 : offsets[n]).padStart(10, '0')} 00000 ${free ? 'f' : 'n'} \n`;
  }
  out += `trailer\n<< /Size ${max + 1} ${trailerEntries} >>\nstartxref\n${xref}\n%%EOF\n`;
  if (spec.updateId !== undefined) {
    // An incremental update that changes nothing but carries its own trailer.
    const second = out.length;
    out += `xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Size ${max + 1} /Root ${spec.root ?? 1} 0 R /Prev ${xref} /ID [${spec.updateId}] >>\nstartxref\n${second}\n%%EOF\n`;
  }
  return Uint8Array.from(Buffer.from(out, 'latin1'));
}

async function failures(bytes: Uint8Array, profile: ValidateProfileCode) {
  const result = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return result.profiles[0]!.failures;
}
async function failureOf(bytes: Uint8Array, profile: ValidateProfileCode, ruleId: string) {
  return (await failures(bytes, profile)).find((f) => f.ruleId === ruleId);
}
async function ruleIds(bytes: Uint8Array, profile: ValidateProfileCode): Promise<string[]> {
  return (await failures(bytes, profile)).map((f) => f.ruleId);
}

describe('trailer (6.1.3)', () => {
  // The first object of a linearized file is its linearization parameter dictionary.
  const linearized = (updateId?: string) =>
    rawPdf({ objects: { 1: '<< /Linearized 1 /L 1000 /O 4 /E 500 /N 1 /T 900 >>', 6: '<< /Type /Catalog /Pages 2 0 R >>' }, root: 6, ...(updateId ? { updateId } : {}) });

  it('PDF/A-1: a linearized file whose first page trailer and last trailer carry different IDs fails', async () => {
    // One trailer only: nothing to compare.
    expect(await ruleIds(linearized(), '1b')).not.toContain('pdfa.trailer.linearized-id');
    const f = await failureOf(linearized(`${ID_B} ${ID_B}`), '1b', 'pdfa.trailer.linearized-id');
    expect(f).toMatchObject({ clause: '6.1.3', examples: [{ context: expect.stringContaining('different IDs') }] });
  });

  it('PDF/A-1: identical IDs in both trailers, or a file that is not linearized, pass', async () => {
    expect(await ruleIds(linearized(`${ID_A} ${ID_A}`), '1b')).not.toContain('pdfa.trailer.linearized-id');
    expect(await ruleIds(rawPdf({ updateId: `${ID_B} ${ID_B}` }), '1b')).not.toContain('pdfa.trailer.linearized-id');
  });

  it('PDF/A-4: the trailer shall not have an Info entry unless the catalog has PieceInfo', async () => {
    const info = { header: '%PDF-2.0', objects: { 6: '<< /ModDate (D:20240101000000Z) >>' }, trailer: '/Info 6 0 R' };
    const f = await failureOf(rawPdf(info), '4', 'pdfa.trailer.info');
    expect(f).toMatchObject({ clause: '6.1.3', examples: [{ context: 'the trailer has an Info entry' }] });
    expect(await ruleIds(rawPdf({ ...info, catalog: '/PieceInfo << >>' }), '4')).not.toContain('pdfa.trailer.info');
    expect(await ruleIds(rawPdf({ header: '%PDF-2.0' }), '4')).not.toContain('pdfa.trailer.info');
    // PDF/A-2 allows an Info dictionary.
    expect(await ruleIds(rawPdf({ ...info, header: '%PDF-1.7' }), '2b')).not.toContain('pdfa.trailer.info');
  });

  it('PDF/A-4: a document information dictionary shall hold only ModDate', async () => {
    const withInfo = (dict: string) => rawPdf({ header: '%PDF-2.0', objects: { 6: dict }, trailer: '/Info 6 0 R', catalog: '/PieceInfo << >>' });
    const f = await failureOf(withInfo('<< /Title (Report) /ModDate (D:20240101000000Z) >>'), '4', 'pdfa.trailer.info-moddate');
    expect(f).toMatchObject({ clause: '6.1.3', examples: [{ context: expect.stringContaining('Title') }] });
    expect(await ruleIds(withInfo('<< /ModDate (D:20240101000000Z) >>'), '4')).not.toContain('pdfa.trailer.info-moddate');
  });
});

describe('cross-reference (PDF/A-1 6.1.4)', () => {
  it('the first object number and the count of a subsection header are separated by one space', async () => {
    const f = await failureOf(rawPdf({ subsectionSeparator: '  ' }), '1b', 'pdfa.xref.subsection-spacing');
    expect(f).toMatchObject({ clause: '6.1.4', examples: [{ context: expect.stringMatching(/^xref at byte \d+$/) }] });
    expect(await ruleIds(rawPdf(), '1b')).not.toContain('pdfa.xref.subsection-spacing');
    // Only PDF/A-1 has this requirement.
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7', subsectionSeparator: '  ' }), '2b')).not.toContain('pdfa.xref.subsection-spacing');
  });

  it('cross-reference streams are not allowed in PDF/A-1; PDF/A-2 allows them', async () => {
    const bytes = rawPdf({ xrefStream: true });
    const f = await failureOf(bytes, '1b', 'pdfa.xref.no-streams');
    expect(f).toMatchObject({ clause: '6.1.4', examples: [{ objectNumber: 5, context: 'cross-reference stream' }] });
    expect(await ruleIds(rawPdf(), '1b')).not.toContain('pdfa.xref.no-streams');
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7', xrefStream: true }), '2b')).not.toContain('pdfa.xref.no-streams');
  });
});

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

describe('DocMDP signatures (PDF/A-2/3 6.1.12)', () => {
  const docMdp = (reference: string) =>
    rawPdf({
      header: '%PDF-1.7',
      catalog: '/Perms << /DocMDP 6 0 R >>',
      objects: { 6: `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /adbe.pkcs7.detached /Contents <00> /ByteRange [0 0 0 0] /Reference [${reference}] >>` },
    });

  it('a signature reference dictionary shall not carry DigestLocation, DigestMethod or DigestValue', async () => {
    const bytes = docMdp('<< /Type /SigRef /TransformMethod /DocMDP /DigestMethod /MD5 /DigestValue <0011> /DigestLocation [0 0] >>');
    const f = await failureOf(bytes, '2b', 'pdfa.perms.docmdp-digest');
    expect(f).toMatchObject({ clause: '6.1.12', examples: [{ objectNumber: 6, context: 'signature reference has digest entries' }] });
    expect(await ruleIds(bytes, '3b')).toContain('pdfa.perms.docmdp-digest');
  });

  it('a reference without digest entries passes, as does a file without DocMDP', async () => {
    expect(await ruleIds(docMdp('<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /P 1 /V /1.2 >> >>'), '2b')).not.toContain('pdfa.perms.docmdp-digest');
    expect(await ruleIds(rawPdf({ header: '%PDF-1.7' }), '2b')).not.toContain('pdfa.perms.docmdp-digest');
  });
});
