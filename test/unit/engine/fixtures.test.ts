import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openPdfBytes, openPdfFile } from '../../../lambdas/engine/core/load-pdf';
import { describeFont, fontsByPage } from '../../../lambdas/engine/core/fonts';
import { readXmp } from '../../../lambdas/engine/core/xmp/identification';
import { preflight } from '../../../lambdas/engine/preflight/index';
import { buildPdf, pdfaSpec, writeLargePdf } from '../../support/pdf-fixtures';
import { tempFiles } from './temp-files';

const files = tempFiles('fixtures');

describe('test fixtures', () => {
  it('writeLargePdf streams a valid PDF of about the requested size', async () => {
    const path = files.path('large.pdf');
    const target = 20 * 1024 * 1024;
    const written = await writeLargePdf(path, target);
    expect(statSync(path).size).toBe(written);
    expect(Math.abs(written - target) / target).toBeLessThan(0.01);
    const r = await preflight({ path, fileType: 'pdf', profileId: 'default', context: null });
    expect(r.report.document).toMatchObject({ pageCount: 1 });
    expect(r.report.images[0]).toMatchObject({ width: 2048 });
    expect(r.report.images[0]!.ppiX).toBeCloseTo(300, 0);
    expect(r.report.images[0]!.ppiY).toBeCloseTo(300, 0);
  });

  it('embeds Liberation Sans for the embedded-font option and leaves Helvetica unembedded', async () => {
    const { doc } = await openPdfBytes(await buildPdf({ pages: [{ font: 'embedded' }, { font: 'standard' }] }));
    const fonts = [...fontsByPage(doc).keys()].map((f) => describeFont(doc.context, f));
    expect(fonts.map((f) => [f.name, f.embedded, f.program])).toEqual([
      ['LiberationSans', true, 'FontFile2'],
      ['Helvetica', false, null],
    ]);
  });

  it('writes the PDF/A claim, output intent and trailer ID of pdfaSpec', async () => {
    const path = files.write(await buildPdf(pdfaSpec(2, 'B')), 'pdf');
    const pdf = await openPdfFile(path);
    expect(readXmp(pdf.doc).pdfa?.part?.value).toBe('2');
    expect(pdf.doc.context.trailerInfo.ID).toBeDefined();
  });
});
