/**
 * End to end through the content interpreter: PDFs whose page content is
 * written operator by operator, preflighted against the GWG profiles.
 */
import { PDFDict, PDFName, type PDFDocument } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { preflight, type Finding } from '../../../../lambdas/engine/preflight/index';
import type { PdfDocumentSection } from '../../../../lambdas/engine/preflight/report';
import { A4, buildPdf, MM, mutatePdf } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';

const files = tempFiles('gwg-preflight');
const B = 3 * MM;

/**
 * An A4 page with 3 mm bleed, TrimBox and BleedBox, the embedded font as /F1,
 * and `content` as its content stream; `resources` adds colour spaces and
 * graphics states, `page` sets other page entries.
 */
async function pagePdf(content: string, extra: { resources?: (doc: PDFDocument) => Record<string, unknown>; page?: (doc: PDFDocument) => Record<string, unknown> } = {}): Promise<Uint8Array> {
  const base = await buildPdf({ pages: [{ size: [A4[0] + 2 * B, A4[1] + 2 * B], trimBox: [B, B, A4[0] + B, A4[1] + B], bleedBox: [0, 0, A4[0] + 2 * B, A4[1] + 2 * B], font: 'embedded' }] });
  return mutatePdf(base, (doc) => {
    const ctx = doc.context;
    const node = doc.getPage(0).node;
    const resources = node.lookup(PDFName.of('Resources'), PDFDict);
    for (const [key, value] of Object.entries(extra.resources?.(doc) ?? {})) resources.set(PDFName.of(key), ctx.obj(value as never));
    for (const [key, value] of Object.entries(extra.page?.(doc) ?? {})) node.set(PDFName.of(key), ctx.obj(value as never));
    node.set(PDFName.of('Contents'), ctx.register(ctx.flateStream(content)));
  });
}

async function run(bytes: Uint8Array, profileId: string) {
  const path = files.write(bytes, 'pdf');
  return preflight({ path, fileType: 'pdf', profileId, context: null });
}

const byCheck = (findings: Finding[]) => Object.fromEntries(findings.map((f) => [f.checkId, f]));

/** Separation colour spaces: a spot ink and the registration colour, both with a CMYK alternate. */
function separations(doc: PDFDocument) {
  const ctx = doc.context;
  const tint = (c: number[]) => ctx.obj({ FunctionType: 2, Domain: [0, 1], C0: [0, 0, 0, 0], C1: c, N: 1 });
  return {
    ColorSpace: ctx.obj({
      Gold: ctx.obj([PDFName.of('Separation'), PDFName.of('Gold'), PDFName.of('DeviceCMYK'), tint([0, 0.2, 0.8, 0.1])]),
      Reg: ctx.obj([PDFName.of('Separation'), PDFName.of('All'), PDFName.of('DeviceCMYK'), tint([1, 1, 1, 1])]),
    }),
    ExtGState: ctx.obj({ OP: ctx.obj({ Type: 'ExtGState', OP: true, op: true }) }),
  };
}

const PROBLEMS = [
  '1 0 0 rg 100 100 50 50 re f', // DeviceRGB
  '/Gold cs 1 scn 200 100 50 50 re f', // a spot colour
  '/Reg cs 0.5 scn 300 100 10 10 re f', // registration colour on the page (200 % ink)
  '0 0 0 1 K 0.1 w 100 300 m 300 300 l S', // a 0.1 pt line
  'BT /F1 6 Tf 0 1 1 0 k 100 400 Td (Small print) Tj ET', // 6 pt text in two inks
  'q /OP gs 0 0 0 0 k 100 500 50 50 re f Q', // white set to overprint
  '1 1 1 1 k 300 500 50 50 re f', // 400 % ink
].join('\n');

describe('GWG profiles, end to end', () => {
  it('sheetfed CMYK finds each problem where it is', async () => {
    const r = await run(await pagePdf(PROBLEMS, { resources: separations }), 'gwg-sheetfed-cmyk');
    const f = byCheck(r.report.findings);
    expect(Object.keys(f).sort()).toEqual(['colour.registration', 'colour.rgb', 'colour.spot', 'colour.tac', 'document.output-intent', 'lines.thin', 'overprint.white', 'text.small']);
    expect(f['colour.rgb']).toMatchObject({ severity: 'error', page: 1, bbox: [100, 100, 150, 150] });
    expect(f['colour.spot']).toMatchObject({ severity: 'error', bbox: [200, 100, 250, 150] });
    expect(f['colour.spot']!.message).toContain('“Gold”');
    expect(f['colour.registration']).toMatchObject({ severity: 'warn', bbox: [300, 100, 310, 110] });
    expect(f['lines.thin']).toMatchObject({ severity: 'warn', measured: { width_pt: 0.1 } });
    expect(f['text.small']).toMatchObject({ severity: 'warn', measured: { size_pt: 6, colorants: 2, font: 'LiberationSans' } });
    expect(f['overprint.white']).toMatchObject({ severity: 'error', bbox: [100, 500, 150, 550] });
    expect(f['colour.tac']).toMatchObject({ severity: 'warn', measured: { tac_percent: 400 }, bbox: [300, 500, 350, 550] });
    expect(r.outcome).toBe('fail');

    expect(r.report.spotColors).toEqual([{ name: 'Gold', pages: [1] }]);
    expect(r.report.pages[0]).toMatchObject({ maxTacPercent: 400, spotColors: ['Gold'], empty: false });
    expect(r.report.pages[0]!.colourSpaces).toEqual(expect.arrayContaining(['DeviceRGB', 'DeviceCMYK', 'Separation Gold']));
    expect(r.report.fonts[0]).toMatchObject({ name: 'LiberationSans', embedded: true, minSizePt: 6, maxSizePt: 6, usedOnPages: [1] });
  });

  it('digital print judges the same file more leniently', async () => {
    const r = await run(await pagePdf(PROBLEMS, { resources: separations }), 'gwg-digital-print');
    const f = byCheck(r.report.findings);
    expect(f['colour.rgb']?.severity).toBe('error');
    expect(f['colour.spot']?.severity).toBe('warn');
    expect(f['colour.tac']).toBeUndefined();
    expect(f['text.small']).toBeUndefined(); // 6 pt is the digital minimum
  });

  it('screen reports none of the print problems', async () => {
    const r = await run(await pagePdf(PROBLEMS, { resources: separations }), 'screen');
    expect(r.report.findings).toEqual([]);
    expect(r.outcome).toBe('pass');
  });

  it('a clean CMYK page passes sheetfed apart from the PDF/X output intent', async () => {
    const r = await run(await pagePdf('0 0 0 1 k BT /F1 10 Tf 100 400 Td (Hello) Tj ET\n0 1 1 0 k 100 100 200 200 re f\n0 0 0 1 K 0.5 w 100 300 m 300 300 l S'), 'gwg-sheetfed-cmyk');
    expect(r.report.findings.map((f) => f.checkId)).toEqual(['document.output-intent']);
    expect(r.outcome).toBe('warn');
  });

  it('an RGB transparency group is an error in sheetfed, and transparency is noted', async () => {
    const bytes = await pagePdf('q /Half gs 0 1 1 0 k 100 100 200 200 re f Q', {
      resources: (doc) => ({ ExtGState: doc.context.obj({ Half: doc.context.obj({ Type: 'ExtGState', ca: 0.5 }) }) }),
      page: (doc) => ({ Group: doc.context.obj({ Type: 'Group', S: 'Transparency', CS: 'DeviceRGB' }) }),
    });
    const r = await run(bytes, 'gwg-sheetfed-cmyk');
    const f = byCheck(r.report.findings);
    expect(f['transparency.group-colour-space']).toMatchObject({ severity: 'error', page: 1, measured: { colourSpace: 'DeviceRGB' } });
    expect(f['transparency.used']).toMatchObject({ severity: 'info' });
    expect(r.report.pages[0]!.transparency).toBe(true);
    expect((r.report.document as PdfDocumentSection).transparency).toBe(true);
  });

  it('an empty page is a warning', async () => {
    const r = await run(await pagePdf('q Q'), 'gwg-sheetfed-cmyk');
    expect(byCheck(r.report.findings)['pages.empty']).toMatchObject({ severity: 'warn', page: 1 });
    expect(r.report.pages[0]!.empty).toBe(true);
  });
});
