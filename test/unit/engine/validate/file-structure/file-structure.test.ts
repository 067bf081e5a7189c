/**
 * File structure rules (ISO 19005 6.1 and the content stream clauses) on
 * hand-written PDFs: the syntax they judge is exactly what a PDF writer
 * library would normalise away, so each fixture is written byte by byte.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { tempFiles } from '../../temp-files';

const files = tempFiles('file-structure');

interface RawPdf {
  header?: string;
  /** Object bodies by number (1 = catalog, 2 = pages, 3 = page, 4 = content stream unless replaced). */
  objects?: Record<number, string>;
  content?: string;
  /** Extra catalog entries. */
  catalog?: string;
  /** Extra page entries. */
  page?: string;
  /** Replaces the "N 0 obj\n" header writer (for spacing faults). */
  objHeader?: (n: number) => string;
  endobj?: string;
  xrefKeyword?: string;
  /** Object numbers listed as free in the xref. */
  free?: number[];
  afterEof?: string;
}

/** A small PDF written byte by byte, with a correct xref unless told otherwise. */
function rawPdf(spec: RawPdf = {}): Uint8Array {
  const content = spec.content ?? 'BT /F1 12 Tf 72 720 Td (Hello) Tj ET';
  const objects: Record<number, string> = {
    1: `<< /Type /Catalog /Pages 2 0 R ${spec.catalog ?? ''} >>`,
    2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    3: `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> ${spec.page ?? ''} >>`,
    4: `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    5: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...spec.objects,
  };
  const max = Math.max(...Object.keys(objects).map(Number));
  let out = `${spec.header ?? '%PDF-1.4'}\n%\xe2\xe3\xcf\xd3\n`;
  const offsets: number[] = [];
  for (let n = 1; n <= max; n++) {
    if (objects[n] === undefined) continue;
    offsets[n] = out.length;
    out += `${spec.objHeader?.(n) ?? `${n} 0 obj\n`}${objects[n]}${spec.endobj ?? '\nendobj\n'}`;
  }
  const xref = out.length;
  out += `${spec.xrefKeyword ?? 'xref\n'}0 ${max + 1}\n0000000000 65535 f \n`;
  for (let n = 1; n <= max; n++) {
    const free = spec.free?.includes(n) || offsets[n] === undefined;
    out += `${String(free ? 0 : offsets[n]).padStart(10, '0')} 00000 ${free ? 'f' : 'n'} \n`;
  }
  out += `trailer\n<< /Size ${max + 1} /Root 1 0 R /ID [<0123456789ABCDEF0123456789ABCDEF> <0123456789ABCDEF0123456789ABCDEF>] >>\nstartxref\n${xref}\n%%EOF\n${spec.afterEof ?? ''}`;
  return Uint8Array.from(Buffer.from(out, 'latin1'));
}

/** A stream object body whose data is exactly `data` (latin1). */
const stream = (data: string, dict = '') => `<< /Length ${data.length} ${dict} >>\nstream\n${data}\nendstream`;

async function failedRules(bytes: Uint8Array, profile: ValidateProfileCode) {
  const result = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return result.profiles[0]!.failures;
}
async function ruleIds(bytes: Uint8Array, profile: ValidateProfileCode): Promise<string[]> {
  return (await failedRules(bytes, profile)).map((f) => f.ruleId);
}

const MY_RULES = /^pdfa\.(file|trailer|xref|string|stream|object|limits|filter|inline-image|name|perms|catalog|content)\./;

describe('file structure rules', () => {
  it('a well-formed file breaks none of them (PDF/A-1, -2 and -4)', async () => {
    for (const [profile, header] of [['1b', '%PDF-1.4'], ['2b', '%PDF-1.7'], ['4', '%PDF-2.0']] as const) {
      const ids = await ruleIds(rawPdf({ header }), profile);
      expect(ids.filter((id) => MY_RULES.test(id)), profile).toEqual([]);
    }
  });

  describe('syntax (6.1.3–6.1.9)', () => {
    it('data after the last %%EOF breaks the trailer clause; a single EOL does not', async () => {
      const failures = await failedRules(rawPdf({ afterEof: 'junk' }), '2b');
      expect(failures.find((f) => f.ruleId === 'pdfa.trailer.after-eof')).toMatchObject({ clause: '6.1.3' });
      expect(await ruleIds(rawPdf({ afterEof: '' }), '2b')).not.toContain('pdfa.trailer.after-eof');
    });

    it('the xref keyword shall be followed by a single EOL before the subsection header', async () => {
      expect(await ruleIds(rawPdf({ xrefKeyword: 'xref\n\n' }), '2b')).toContain('pdfa.xref.keyword-eol');
      expect(await ruleIds(rawPdf({ xrefKeyword: 'xref \n' }), '4')).toContain('pdfa.xref.keyword-eol');
    });

    it('hexadecimal strings need an even number of hex digits, in objects and in content', async () => {
      const inObject = await failedRules(rawPdf({ page: '/Foo <ABC>' }), '1b');
      expect(inObject.find((f) => f.ruleId === 'pdfa.string.hex-even')).toMatchObject({ clause: '6.1.6', examples: [{ objectNumber: 3, context: 'hex string <ABC>' }] });
      expect(await ruleIds(rawPdf({ content: 'BT /F1 12 Tf <48G5> Tj ET' }), '4')).toContain('pdfa.string.hex-digits');
      expect(await ruleIds(rawPdf({ page: '/Foo <AB CD>' }), '1b')).not.toContain('pdfa.string.hex-even');
    });

    it('objects the xref marks free are not judged', async () => {
      const ids = await ruleIds(rawPdf({ objects: { 6: '<AF9>' }, free: [6] }), '1b');
      expect(ids).not.toContain('pdfa.string.hex-even');
      expect(await ruleIds(rawPdf({ objects: { 6: '<AF9>' } }), '1b')).toContain('pdfa.string.hex-even');
    });

    it('Length shall match the stream data; stream and endstream need their EOL markers', async () => {
      const wrongLength = rawPdf({ objects: { 4: '<< /Length 99 >>\nstream\nq Q\nendstream' } });
      const failures = await failedRules(wrongLength, '2b');
      expect(failures.find((f) => f.ruleId === 'pdfa.stream.length')).toMatchObject({ clause: '6.1.7.1', examples: [{ objectNumber: 4 }] });
      expect(await ruleIds(rawPdf({ objects: { 4: '<< /Length 3 >>\nstream q Q\nendstream' } }), '1b')).toContain('pdfa.stream.keyword-eol');
      expect(await ruleIds(rawPdf({ objects: { 4: '<< /Length 3 >>\nstream\r\nq Q\r\nendstream' } }), '2b')).not.toContain('pdfa.stream.length');
      expect(await ruleIds(rawPdf({ objects: { 4: stream('q Q', '/F (data.bin)') } }), '4')).toContain('pdfa.stream.external');
    });

    it('object headers use single spaces and EOL markers around obj and endobj', async () => {
      expect(await ruleIds(rawPdf({ objHeader: (n) => `${n}  0 obj\n` }), '2b')).toContain('pdfa.object.header-spacing');
      expect(await ruleIds(rawPdf({ endobj: '\n endobj\n' }), '1b')).toContain('pdfa.object.header-spacing');
      const failures = await failedRules(rawPdf({ objHeader: (n) => `${n} 0 obj ` }), '4');
      expect(failures.find((f) => f.ruleId === 'pdfa.object.header-spacing')).toMatchObject({ clause: '6.1.8' });
    });
  });

  describe('implementation limits (PDF/A-1 6.1.12, PDF/A-2 6.1.13)', () => {
    it('integers beyond 32 bits fail every part', async () => {
      expect(await ruleIds(rawPdf({ page: '/Foo 3000000000' }), '2b')).toContain('pdfa.limits.integer');
      expect(await ruleIds(rawPdf({ page: '/Foo 2147483647' }), '2b')).not.toContain('pdfa.limits.integer');
    });

    it('reals beyond ±32767 fail PDF/A-1 only, even written as 60000.0 in content', async () => {
      const bytes = rawPdf({ content: 'BT /F1 12 Tf 60000.0 Tz (A) Tj ET' });
      const failures = await failedRules(bytes, '1b');
      expect(failures.find((f) => f.ruleId === 'pdfa.limits.real')).toMatchObject({ clause: '6.1.12', examples: [{ page: 1, context: '60000.0' }] });
      expect(await ruleIds(bytes, '2b')).not.toContain('pdfa.limits.real');
      expect(await ruleIds(rawPdf({ content: 'BT /F1 12 Tf 60000 Tz (A) Tj ET' }), '1b')).not.toContain('pdfa.limits.real');
    });

    it('names longer than 127 bytes fail', async () => {
      expect(await ruleIds(rawPdf({ page: `/${'N'.repeat(128)} 1` }), '2b')).toContain('pdfa.limits.name');
      expect(await ruleIds(rawPdf({ page: `/${'N'.repeat(127)} 1` }), '2b')).not.toContain('pdfa.limits.name');
    });

    it('q nesting deeper than 28 fails', async () => {
      expect(await ruleIds(rawPdf({ content: `${'q '.repeat(29)}${'Q '.repeat(29)}` }), '2b')).toContain('pdfa.limits.q-nesting');
      expect(await ruleIds(rawPdf({ content: `${'q '.repeat(28)}${'Q '.repeat(28)}` }), '1b')).not.toContain('pdfa.limits.q-nesting');
    });

    it('DeviceN spaces may have 8 colourants in PDF/A-1 and 32 from PDF/A-2', async () => {
      const names = Array.from({ length: 9 }, (_, i) => `/C${i}`).join(' ');
      const bytes = rawPdf({ objects: { 6: `[/DeviceN [${names}] /DeviceCMYK 7 0 R]`, 7: '<< /FunctionType 2 /Domain [0 1] /N 1 >>' }, page: '/CS9 6 0 R' });
      expect(await ruleIds(bytes, '1b')).toContain('pdfa.limits.devicen');
      expect(await ruleIds(bytes, '2b')).not.toContain('pdfa.limits.devicen');
    });
  });

  describe('filters and names', () => {
    it('LZW is forbidden; from PDF/A-2 only standard filters are allowed', async () => {
      const lzw = rawPdf({ objects: { 6: stream('x', '/Filter /LZWDecode') }, page: '/Foo 6 0 R' });
      expect(await ruleIds(lzw, '1b')).toContain('pdfa.filter.lzw');
      expect(await ruleIds(lzw, '2b')).toContain('pdfa.filter.standard');
      const flate = deflateSync(Buffer.from('q Q')).toString('latin1');
      expect(await ruleIds(rawPdf({ objects: { 4: stream(flate, '/Filter /FlateDecode') } }), '2b')).not.toContain('pdfa.filter.standard');
    });

    it('inline images shall not use LZW (nor, from PDF/A-2, JBIG2/JPX or unknown filters)', async () => {
      const content = 'q 1 0 0 1 0 0 cm BI /W 1 /H 1 /BPC 8 /CS /G /F /LZW ID \x80 EI Q';
      expect(await ruleIds(rawPdf({ content }), '1b')).toContain('pdfa.inline-image.filter');
      const failures = await failedRules(rawPdf({ header: '%PDF-2.0', content: content.replace('/LZW', '/JPXDecode') }), '4');
      expect(failures.find((f) => f.ruleId === 'pdfa.inline-image.filter')).toMatchObject({ clause: '6.1.9' });
    });

    it('font names shall be valid UTF-8', async () => {
      const bytes = rawPdf({ objects: { 5: '<< /Type /Font /Subtype /Type1 /BaseFont /Helv#C4 >>' } });
      expect(await ruleIds(bytes, '2b')).toContain('pdfa.name.utf8');
      const ok = rawPdf({ objects: { 5: '<< /Type /Font /Subtype /Type1 /BaseFont /Helv#C3#A4 >>' } });
      expect(await ruleIds(ok, '2b')).not.toContain('pdfa.name.utf8');
    });

    it('the structure types a role map maps to shall be valid UTF-8, as the types it maps from', async () => {
      const withRoleMap = (target: string) => rawPdf({ header: '%PDF-2.0', catalog: `/StructTreeRoot << /Type /StructTreeRoot /RoleMap << /MyDoc ${target} >> >>` });
      expect(await ruleIds(withRoleMap('/Document#C2'), '4')).toContain('pdfa.name.utf8');
      expect(await ruleIds(withRoleMap('/Document'), '4')).not.toContain('pdfa.name.utf8');
    });
  });

  describe('document catalog', () => {
    it('Perms holds only UR3 and DocMDP', async () => {
      expect(await ruleIds(rawPdf({ catalog: '/Perms << /Other 1 >>' }), '2b')).toContain('pdfa.perms.keys');
      expect(await ruleIds(rawPdf({ catalog: '/Perms << /UR3 1 >>' }), '2b')).not.toContain('pdfa.perms.keys');
    });

    it('PDF/A-4: the Version is 2.x and there is no Requirements entry', async () => {
      const ids = await ruleIds(rawPdf({ header: '%PDF-2.0', catalog: '/Version /1.7 /Requirements []' }), '4');
      expect(ids).toEqual(expect.arrayContaining(['pdfa.catalog.version', 'pdfa.catalog.requirements']));
      expect(await ruleIds(rawPdf({ header: '%PDF-2.0', catalog: '/Version /2.0' }), '4')).not.toContain('pdfa.catalog.version');
    });
  });

  describe('content streams (PDF/A-1 6.2.10, PDF/A-2/4 6.2.2)', () => {
    it('operators ISO 32000 does not define are forbidden, even between BX and EX', async () => {
      const failures = await failedRules(rawPdf({ content: 'BX 1 2 foo EX q Q' }), '1b');
      expect(failures.find((f) => f.ruleId === 'pdfa.content.undefined-operator')).toMatchObject({ clause: '6.2.10', examples: [{ page: 1 }] });
      expect(await ruleIds(rawPdf({ content: 'BX 1 2 foo EX' }), '2b')).toContain('pdfa.content.undefined-operator');
    });

    it('a form using resources needs its own Resources; PDF/A-4 also needs every name defined', async () => {
      const form = stream('BT /F1 12 Tf (A) Tj ET', '/Type /XObject /Subtype /Form /BBox [0 0 10 10]');
      const bytes = rawPdf({ objects: { 3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /X1 6 0 R >> >> >>', 6: form }, content: '/X1 Do' });
      expect(await ruleIds(bytes, '2b')).toContain('pdfa.content.inherited-resources');
      expect(await ruleIds(rawPdf({ header: '%PDF-2.0', content: 'BT /F9 12 Tf (A) Tj ET' }), '4')).toContain('pdfa.content.undefined-resource');
    });

    /** A page whose Resources hold /F1, /GS0 and the form /X1, the form given `formDict` and `formContent`. */
    const withForm = (formDict: string, formContent: string, header = '%PDF-1.7') =>
      rawPdf({
        header,
        objects: {
          3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /ExtGState << /GS0 << /LW 2 >> >> /XObject << /X1 6 0 R >> >> >>',
          6: stream(formContent, `/Type /XObject /Subtype /Form /BBox [0 0 10 10] ${formDict}`),
        },
        content: '/X1 Do',
      });
    const contentRules = async (bytes: Uint8Array, profile: ValidateProfileCode) =>
      (await ruleIds(bytes, profile)).filter((id) => id.startsWith('pdfa.content.'));

    it('a form whose own Resources lack a name the page defines relies on the page: inherited in 2b and 4, not undefined', async () => {
      const borrowing = withForm('/Resources << >>', '/GS0 gs 0 0 5 5 re f');
      expect(await contentRules(borrowing, '2b')).toEqual(['pdfa.content.inherited-resources']);
      expect(await contentRules(withForm('/Resources << >>', '/GS0 gs 0 0 5 5 re f', '%PDF-2.0'), '4')).toEqual(['pdfa.content.inherited-resources']);
      const own = withForm('/Resources << /ExtGState << /GS0 << /LW 2 >> >> >>', '/GS0 gs 0 0 5 5 re f');
      expect(await contentRules(own, '2b')).toEqual([]);
    });

    it('a name neither the stream nor the page defines is undefined (PDF/A-4), even if an enclosing form defines it', async () => {
      // X1 defines /GS7 and paints X2; X2 has its own (empty) Resources and uses /GS7, which only X1 has.
      const bytes = rawPdf({
        header: '%PDF-2.0',
        objects: {
          3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /XObject << /X1 6 0 R >> >> >>',
          6: stream('/X2 Do', '/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /ExtGState << /GS7 << /LW 2 >> >> /XObject << /X2 7 0 R >> >>'),
          7: stream('/GS7 gs 0 0 5 5 re f', '/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << >>'),
        },
        content: '/X1 Do',
      });
      expect(await contentRules(bytes, '4')).toEqual(['pdfa.content.undefined-resource']);
    });

    it('page content using Resources inherited through the page tree relies on them (PDF/A-2 on), not on its own', async () => {
      const inheriting = rawPdf({
        objects: {
          2: '<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /ExtGState << /GS0 << /LW 2 >> >> >> >>',
          3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
        },
        content: '/GS0 gs 0 0 5 5 re f',
      });
      expect(await contentRules(inheriting, '2b')).toEqual(['pdfa.content.inherited-resources']);
      const own = rawPdf({
        objects: { 3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /ExtGState << /GS0 << /LW 2 >> >> >> >>' },
        content: '/GS0 gs 0 0 5 5 re f',
      });
      expect(await contentRules(own, '2b')).toEqual([]);
    });

    it('a Type 3 glyph procedure uses its font\'s Resources; one the font lacks comes from the page and is inherited', async () => {
      const type3 = (fontResources: string) =>
        rawPdf({
          objects: {
            3: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /T3 5 0 R >> /ExtGState << /GS0 << /LW 2 >> >> >> >>',
            5: `<< /Type /Font /Subtype /Type3 /FontBBox [0 0 1000 1000] /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << /a 6 0 R >> /Encoding << /Type /Encoding /Differences [97 /a] >> /FirstChar 97 /LastChar 97 /Widths [1000] ${fontResources} >>`,
            6: stream('1000 0 d0 /GS0 gs 0 0 500 500 re f'),
          },
          content: 'BT /T3 12 Tf 72 720 Td (a) Tj ET',
        });
      expect(await contentRules(type3(''), '2b')).toEqual(['pdfa.content.inherited-resources']);
      expect(await contentRules(type3('/Resources << /ExtGState << /GS0 << /LW 2 >> >> >>'), '2b')).toEqual([]);
    });

    it('an inline image naming a ColorSpace resource is a use of it; abbreviations and device names are not', async () => {
      const page = (res: string) => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << ${res} >> >>`;
      const image = (cs: string) => `BI /W 1 /H 1 /BPC 8 /CS ${cs} ID \x80 EI`;
      expect(await contentRules(rawPdf({ header: '%PDF-2.0', objects: { 3: page('') }, content: image('/CS0') }), '4')).toEqual(['pdfa.content.undefined-resource']);
      expect(await contentRules(rawPdf({ header: '%PDF-2.0', objects: { 3: page('/ColorSpace << /CS0 /DeviceGray >>') }, content: image('/CS0') }), '4')).toEqual([]);
      expect(await contentRules(rawPdf({ header: '%PDF-2.0', objects: { 3: page('') }, content: image('/G') }), '4')).toEqual([]);
    });
  });
});
