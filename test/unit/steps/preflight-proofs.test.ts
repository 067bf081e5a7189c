import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { useWorkerServices } from './support/worker-services';
import { handler as preflight } from '../../../lambdas/steps/preflight';
import { loadStepResult } from '../../../lambdas/domain/load-step-result';
import type { PreflightReportLike } from '../../../lambdas/domain/step-results';
import { presentRuns } from '../../../lambdas/domain/present/runs';
import { A4, buildPdf, MM, pngBytes } from '../../support/pdf-fixtures';
import { createTestJob, reload, stepEvent, taskView } from './support/job-fixture';

const t = useWorkerServices();

const pdf = { fileType: 'pdf' as const, mimeType: 'application/pdf' };
const sheetfed = { type: 'preflight' as const, params: { profileId: 'gwg-sheetfed-cmyk' } };

/** 100 px placed over 200 pt is 36 ppi: far below the 150 ppi gwg-sheetfed-cmyk requires. */
const LOW_RES_BOX: [number, number, number, number] = [72, 72, 272, 272];
const lowResImage = { widthPx: 100, heightPx: 100, placedWidthPt: 200, placedHeightPt: 200 };

describe('proofs from the preflight worker', () => {
  it('delivers a proof of the page with a low-resolution image, framed in red where the image is', async () => {
    const graph = await createTestJob(t.services, { tasks: [{ bytes: await buildPdf({ pages: [{}, { image: lowResImage }] }), ingested: pdf, steps: [sheetfed] }] });
    await expect(preflight(stepEvent(graph, 0, 0))).resolves.toMatchObject({ status: 'done', outcome: 'fail' });
    const { steps, audit } = taskView(await reload(t.services, graph.job.id), 0);
    const step = steps[0]!;
    const report = (await loadStepResult(t.services.blobs, step)) as PreflightReportLike;
    const lowRes = report.findings.findIndex((f) => f.checkId === 'images.resolution-low');
    expect(report.findings[lowRes]).toMatchObject({ page: 2, bbox: LOW_RES_BOX });

    const proofs = step.outputs.filter((o) => o.role === 'proof');
    expect(proofs.map((p) => p.page)).toContain(2);
    const proof = proofs.find((p) => p.page === 2)!;
    expect(proof).toMatchObject({ kind: 'image', mimeType: 'image/jpeg', fileName: 'card-preflight-proof-page-2.jpg' });
    expect(step.outputs[0]).toMatchObject({ role: 'preflight-report' });
    expect(audit.at(-1)!.message).toMatch(/\d+ proof images?\.$/);

    const { data, info } = await sharp(Buffer.from(await t.services.blobs.getBytes(proof.key))).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([proof.width, proof.height]);
    const at = (x: number, y: number) => {
      const i = (Math.round(y) * info.width + Math.round(x)) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    };
    const isRed = ([r, g, b]: number[]) => r! > 150 && r! > 2 * g! && r! > 2 * b!;
    // The reddest pixel up to 3 px further out from the box (never inside it:
    // the image is random noise) and 2 px along the frame: JPEG blurs a 2–3 px
    // frame, so one exact pixel is a coin toss.
    const reddestOutward = (x: number, y: number, [ox, oy]: readonly [number, number]): number[] => {
      let best = at(x, y);
      for (let o = 0; o <= 3; o++) for (let t = -2; t <= 2; t++) {
        const c = at(x + ox * o + oy * t, y + oy * o + ox * t);
        if (c[0]! - (c[1]! + c[2]!) / 2 > best[0]! - (best[1]! + best[2]!) / 2) best = c;
      }
      return best;
    };
    // A4 fitted into 1200 px; the frame lies just outside the image's box.
    const k = info.width / A4[0];
    const [x0, y0, x1, y1] = LOW_RES_BOX;
    const left = x0 * k;
    const right = x1 * k;
    const top = (A4[1] - y1) * k;
    const bottom = (A4[1] - y0) * k;
    const midX = (left + right) / 2;
    const midY = (top + bottom) / 2;
    const sides = [
      [left - 1.5, midY, [-1, 0]],
      [right + 1.5, midY, [1, 0]],
      [midX, bottom + 1.5, [0, 1]],
    ] as const;
    for (const [x, y, outward] of sides) {
      const c = reddestOutward(x, y, outward);
      expect(isRed(c), `frame near ${Math.round(x)}, ${Math.round(y)}: ${c.join(',')}`).toBe(true);
    }
    // Away from every finding the page is still white.
    expect(Math.min(...at(info.width * 0.8, info.height * 0.5))).toBeGreaterThan(240);

    // GET /jobs/{id}?expand=runs lists the proofs when the task made no previews.
    const runs = await presentRuns(await reload(t.services, graph.job.id), { blobs: t.services.blobs, expiresIn: 3600 });
    expect(runs.runs[0]!.proofs.map((p) => p.page)).toEqual(proofs.map((p) => p.page!).sort((a, b) => a - b));
    expect(runs.runs[0]!.proofs.every((p) => /proof-page-\d+\.jpg/.test(p.url))).toBe(true);
  });

  it('makes no proof for a file whose findings have no place on a page', async () => {
    // Embedded font, CMYK, TrimBox and bleed: only the missing output intent remains, which concerns the document.
    const clean = await buildPdf({ pages: [{ font: 'embedded', colourSpace: 'cmyk', trimBox: [3 * MM, 3 * MM, A4[0] - 3 * MM, A4[1] - 3 * MM], bleedBox: [0, 0, A4[0], A4[1]] }] });
    const graph = await createTestJob(t.services, { tasks: [{ bytes: clean, ingested: pdf, steps: [sheetfed] }] });
    await preflight(stepEvent(graph, 0, 0));
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    const report = (await loadStepResult(t.services.blobs, step)) as PreflightReportLike;
    expect(report.findings.every((f) => f.bbox === null)).toBe(true);
    expect(step.outputs.map((o) => o.role)).toEqual(['preflight-report']);
  });

  it('makes no proof for an image file, even with findings', async () => {
    const graph = await createTestJob(t.services, {
      tasks: [{ bytes: await pngBytes({ width: 200, height: 100, density: 36 }), name: 'photo.png', ingested: { fileType: 'raster', mimeType: 'image/png' }, steps: [sheetfed] }],
    });
    await preflight(stepEvent(graph, 0, 0));
    const step = taskView(await reload(t.services, graph.job.id), 0).steps[0]!;
    const report = (await loadStepResult(t.services.blobs, step)) as PreflightReportLike;
    expect(report.findings.map((f) => f.checkId)).toContain('images.resolution-low');
    expect(step.outputs.map((o) => o.role)).toEqual(['preflight-report']);
  });
});
