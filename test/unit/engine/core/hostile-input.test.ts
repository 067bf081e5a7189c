/**
 * Hostile PDFs end in a report, or in UnprocessableFileError with a sentence for
 * the customer: never another exception, never a hang, never memory without
 * bound. The files are built byte by byte (../guard/hostile-pdfs.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { endWarmEngineThreads } from '../../../../lambdas/engine/guard/engine-thread';
import { preflightGuarded } from '../../../../lambdas/engine/guard/preflight-guarded';
import { preflight, type PreflightResult } from '../../../../lambdas/engine/preflight';
import { tempFiles } from '../temp-files';
import { manyPages, nested, onePage, rawPdf, zeroBomb } from '../guard/hostile-pdfs';

const files = tempFiles('hostile');
afterAll(() => endWarmEngineThreads());

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const A4_PAGE = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>';

/** Preflight of these bytes: the report, or the refusal; anything else fails the test. */
async function preflightOf(bytes: Uint8Array, within = 10_000): Promise<PreflightResult | UnprocessableFileError> {
  const path = files.write(bytes, 'pdf');
  const started = Date.now();
  const result = await preflight({ path, fileType: 'pdf', profileId: 'default', context: null }).catch((e: unknown) => {
    if (e instanceof UnprocessableFileError) return e;
    throw e;
  });
  expect(Date.now() - started).toBeLessThan(within);
  return result;
}

async function reportOf(bytes: Uint8Array, within?: number): Promise<PreflightResult> {
  const result = await preflightOf(bytes, within);
  if (result instanceof UnprocessableFileError) throw new Error(`refused instead of reported: ${result.message}`);
  return result;
}

describe('decompression bombs', () => {
  it('a page content stream inflating to 300 MB (over the 256 MB cap) is left unread and the page is still reported', async () => {
    const r = await reportOf(onePage({ dict: '<< /Filter /FlateDecode >>', data: zeroBomb(300) }));
    expect(r.report.summary.pages).toBe(1);
  });

  it('an object stream inflating to 1.5 GB is skipped while the file is opened, in seconds', async () => {
    const r = await reportOf(
      rawPdf({ 1: CATALOG, 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 3: A4_PAGE, 5: { dict: '<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>', data: zeroBomb(1500) } }),
      5_000,
    );
    expect(r.report.summary.pages).toBe(1);
  });

  it('a cross-reference stream inflating to 1 GB is never inflated; its trailer keys still count', async () => {
    const r = await reportOf(
      rawPdf(
        { 1: CATALOG, 2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 3: A4_PAGE, 6: { dict: '<< /Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R /Filter /FlateDecode >>', data: zeroBomb(1024) } },
        { trailer: '' },
      ),
      5_000,
    );
    expect(r.report.summary.pages).toBe(1);
  });
});

describe('reference cycles', () => {
  it('a page tree whose Kids point back up to the root: the pages along the first path are reported', async () => {
    const r = await reportOf(
      rawPdf({ 1: CATALOG, 2: '<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>', 3: A4_PAGE, 5: '<< /Type /Pages /Parent 2 0 R /Kids [2 0 R 3 0 R] /Count 1 >>' }),
    );
    expect(r.report.summary.pages).toBe(2);
  });

  it('a page tree node listed under its parent twice at every level (2^60 paths) is walked once', async () => {
    const objects: Record<number, string> = { 1: CATALOG, 2: '<< /Type /Pages /Kids [10 0 R 10 0 R] /Count 1 >>' };
    for (let n = 10; n < 70; n++) objects[n] = `<< /Type /Pages /Kids [${n + 1} 0 R ${n + 1} 0 R] /Count 1 >>`;
    objects[70] = '<< /Type /Page /MediaBox [0 0 595 842] >>';
    const r = await reportOf(rawPdf(objects));
    // The last node lists the page twice; a page listed twice is shown twice.
    expect(r.report.summary.pages).toBe(2);
  });

  it('a Parent chain that loops back on itself', async () => {
    const r = await reportOf(rawPdf({ 1: CATALOG, 2: '<< /Type /Pages /Parent 2 0 R /Kids [3 0 R] /Count 1 >>', 3: '<< /Type /Page /Parent 3 0 R >>' }));
    expect(r.report.summary.pages).toBe(1);
  });

  it('a form XObject that paints itself', async () => {
    const r = await reportOf(
      onePage({ dict: '<< >>', data: Buffer.from('/Fm1 Do') }, { 5: { dict: '<< /Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /Fm1 5 0 R >> >> >>', data: Buffer.from('0 0 m 5 5 l S /Fm1 Do') } }, '/MediaBox [0 0 595 842] /Resources << /XObject << /Fm1 5 0 R >> >>'),
    );
    expect(r.report.summary.pages).toBe(1);
  });

  it('an indirect object that is a reference to itself, used as the page content', async () => {
    const r = await reportOf(onePage('4 0 R'));
    expect(r.report.summary.pages).toBe(1);
  });
});

describe('deep nesting', () => {
  it.each([
    ['arrays', nested(1_000_000, 'array')],
    ['dictionaries', nested(300_000, 'dict')],
  ])('%s nested hundreds of thousands deep in an object', async (_kind, deep) => {
    const r = await preflightOf(onePage('<< >>', { 5: deep }));
    if (r instanceof UnprocessableFileError) expect(r.message).toMatch(/damaged/);
    else expect(r.report.summary.pages).toBe(1);
  });

  it('a page tree nested 100,000 levels deep is refused as damaged, not a stack overflow', async () => {
    const objects: Record<number, string> = { 1: CATALOG };
    const depth = 100_000;
    for (let n = 2; n < depth + 2; n++) objects[n] = `<< /Type /Pages /Kids [${n + 1} 0 R] /Count 1 >>`;
    objects[depth + 2] = A4_PAGE;
    const r = await preflightOf(rawPdf(objects));
    expect(r).toBeInstanceOf(UnprocessableFileError);
    expect((r as Error).message).toMatch(/damaged/);
  });
});

describe('huge and lying counts', () => {
  it('a page tree of 100,000 pages is reported in full within the default budget', async () => {
    const path = files.write(manyPages(100_000), 'pdf');
    const r = await preflightGuarded({ path, fileType: 'pdf', profileId: 'default', context: null });
    expect(r.report.summary.pages).toBe(100_000);
    expect(r.report.document).toMatchObject({ pageCount: 100_000 });
  });

  it('a /Count of two billion over one page counts one page', async () => {
    const r = await reportOf(rawPdf({ 1: CATALOG, 2: '<< /Type /Pages /Kids [3 0 R] /Count 2000000000 >>', 3: A4_PAGE }));
    expect(r.report.summary.pages).toBe(1);
  });

  it('a cross-reference stream claiming two billion objects, and an object stream claiming two billion entries', async () => {
    const r = await reportOf(
      rawPdf({
        1: CATALOG,
        2: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        3: A4_PAGE,
        5: { dict: '<< /Type /ObjStm /N 2000000000 /First 10 >>', data: Buffer.from('7 0 8 4   << >> << >>') },
        6: { dict: '<< /Type /XRef /Size 2000000000 /W [1 4 2] /Root 1 0 R >>', data: Buffer.alloc(14) },
      }),
    );
    expect(r.report.summary.pages).toBe(1);
  });
});

describe('absurd numbers', () => {
  const big = '1000000000000000000000000000000'; // 1e30, written out: PDF has no exponents

  it('a 1e30 MediaBox, UserUnit and CTM and a 1e9 × 1e9 image give a report whose numbers are all finite', async () => {
    const content = `q ${big} 0 0 ${big} 0 0 cm /Im1 Do Q 0.0000000001 w 0 0 m 1 1 l S BT /F1 ${big} Tf (x) Tj ET`;
    const r = await reportOf(
      onePage(
        { dict: '<< >>', data: Buffer.from(content) },
        {
          5: { dict: '<< /Type /XObject /Subtype /Image /Width 1000000000 /Height 1000000000 /BitsPerComponent 8 /ColorSpace /DeviceRGB >>', data: Buffer.from('abc') },
          6: '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
        },
        `/Resources << /XObject << /Im1 5 0 R >> /Font << /F1 6 0 R >> >> /MediaBox [0 0 ${big} ${big}] /UserUnit ${big} /Rotate 1000000000`,
      ),
    );
    expect(r.report.summary.pages).toBe(1);
    // JSON turns NaN and Infinity into null: a report that survives the round trip has only finite numbers.
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
  });

  it('a page whose MediaBox holds a number beyond floating point range is refused with a sentence', async () => {
    const r = await preflightOf(onePage('<< >>', {}, `/MediaBox [0 0 ${'9'.repeat(400)} 842]`));
    expect(r).toBeInstanceOf(UnprocessableFileError);
    expect((r as Error).message).toMatch(/no readable pages/);
  });
});

describe('truncated and garbage files', () => {
  it('a file cut off in the middle of its first object', async () => {
    const whole = onePage({ dict: '<< >>', data: Buffer.from('0 0 m 1 1 l S') });
    const r = await preflightOf(whole.subarray(0, 40));
    expect(r).toBeInstanceOf(UnprocessableFileError);
  });

  it('a PDF header followed by a megabyte of structure-like garbage', async () => {
    const garbage = Buffer.from('%PDF-1.7\n' + '1 0 obj << /Type /Pages /Kids [1 0 R] >> '.repeat(25_000));
    const r = await preflightOf(garbage);
    expect(r).toBeInstanceOf(UnprocessableFileError);
  });
});
