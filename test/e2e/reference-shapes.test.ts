/**
 * docs/api.md §11: the clients written for the original service parse its
 * response bodies, kept in ../shared/spec/reference-responses/. In the same
 * situation, each of our responses has every field path of the matching file,
 * with the same JSON type (or null) and the same enum spellings, apart from the
 * deliberate differences of rule 2 (test/support/json-shape.ts compares).
 * Adding a field to a reference file makes this fail.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNELS, FILE_TYPES, OUTCOMES, STATUSES, STEP_TYPES } from '../../lambdas/domain/model';
import { compareShape, type ShapeOptions } from '../support/json-shape';
import { api, postForm, waitForJob, type ApiResponse } from './support/client';
import { A5, buildPdf, type PdfSpec } from '../support/pdf-fixtures';
import { onePagePdfBase64 } from './support/files';
import { slowSourceServer, type TestServer } from './support/source-server';
import { target } from './support/target';
import { webhookReceiver, type Receiver } from './support/webhook-receiver';

/** job.preflight.json's situation: a card with no bleed, a font not embedded and an image of too low a resolution. */
const CARD: PdfSpec = {
  pages: [{ mediaBox: [0, 0, A5[0], A5[1]], trimBox: [0, 0, A5[0], A5[1]], text: 'Business card', image: { widthPx: 60, heightPx: 40, placedWidthPt: 120, placedHeightPt: 80 } }],
};

const REFERENCES = path.resolve(import.meta.dirname, '../../../shared/spec/reference-responses');
const reference = (file: string): unknown => JSON.parse(readFileSync(path.join(REFERENCES, file), 'utf8'));

/** An enum field: the reference's spelling must be one of ours (or its deliberate alias), and ours any of ours. */
const vocabulary =
  (values: readonly string[], aliases: Record<string, string> = {}) =>
  (referenceValue: string): readonly string[] =>
    values.includes(referenceValue) || referenceValue in aliases ? values : [];

const OPTIONS: ShapeOptions = {
  enums: {
    status: vocabulary([...STATUSES]),
    outcome: vocabulary([...OUTCOMES]),
    channel: vocabulary([...CHANNELS]),
    fileType: vocabulary([...FILE_TYPES]),
    stepType: vocabulary([...STEP_TYPES, 'repreflight']),
    // Rule 2: the reference's `output` is our `fixed`, its `optimizedFile` our `optimized`.
    role: vocabulary(['source', 'fixed', 'optimized', 'preflight-report', 'validation-report', 'preview', 'proof', 'thumbnail'], { output: 'fixed', optimizedFile: 'optimized' }),
    // Our findings say error/warn/info; the evaluation view says reject/warn/ignore (rule 5).
    severity: vocabulary(['error', 'warn', 'info', 'reject', 'ignore', 'off']),
  },
  // Rule 5: what a finding carries depends on the finding (`page?, font?, measured_<unit>?, …`, `fixId?, strategy?, params?`).
  optional: ['evaluation.findings[].page', 'evaluation.findings[].font', ...['mm', 'pt', 'dpi', 'percent', 'count'].flatMap((u) => [`evaluation.findings[].measured_${u}`, `evaluation.findings[].required_${u}`]), 'evaluation.findings[].autofix.runner', 'evaluation.findings[].autofix.fixId', 'evaluation.findings[].autofix.strategy', 'evaluation.findings[].autofix.params'],
  // Rule 5: recommendedAutofix's params are what POST /jobs/fix takes (fixParams by fix id), not the original's optimize options.
  skip: ['job.results.preflight[].report.evaluation.recommendedAutofix.params'],
};

/**
 * Reference paths under arrays that stay empty in our response in the same
 * situation, so their elements cannot be compared here; each with why.
 */
const UNPROVEN: Record<string, string[]> = {};

function expectShape(file: string, res: ApiResponse, options: ShapeOptions = OPTIONS): void {
  const report = compareShape(reference(file), res.body, options);
  expect(report.problems, `${file}: fields clients read that our response lacks`).toEqual([]);
  expect(report.unproven, `${file}: reference fields under arrays empty in ours`).toEqual(UNPROVEN[file] ?? []);
}

describe.skipIf(!existsSync(REFERENCES))('responses in the shapes the existing clients parse (docs/api.md §11)', () => {
  let fullJobId: string;
  let preflightJobId: string;
  let upload: ApiResponse;

  beforeAll(async () => {
    // A file uploaded through POST /uploads, fixed by autofix (its JavaScript removed) and validated: job.full.json's situation.
    const bytes = await buildPdf({ ...CARD, documentJavaScript: 'app.alert("hello");', openAction: 'javascript' });
    upload = await api('POST', '/uploads', { body: { mimeType: 'application/pdf', sizeBytes: bytes.length } });
    expect((await postForm(upload.body.upload, new Blob([Buffer.from(bytes)], { type: 'application/pdf' }), 'business-card.pdf')).status).toBeLessThan(300);
    const full = await api('POST', '/jobs', {
      body: {
        channel: 'store',
        customerId: 'cust_301',
        orderId: 'order_5512',
        metaData: { cartId: 'cart_88112' },
        sources: [
          {
            fileRef: upload.body.fileRef,
            name: 'business-card.pdf',
            steps: [{ type: 'preflight', params: { profileId: 'default' } }, { type: 'autofix' }, { type: 'validate', params: { profile: ['auto'] } }],
          },
        ],
      },
    });
    expect(full.status).toBe(201);
    fullJobId = full.body.job.id;
    const card = await buildPdf(CARD);
    const preflight = await api('POST', '/jobs/preflight', { body: { sources: [{ file: Buffer.from(card).toString('base64'), name: 'business-card.pdf', profileId: 'default' }] } });
    expect(preflight.status).toBe(201);
    preflightJobId = preflight.body.job.id;
    await waitForJob(fullJobId);
    await waitForJob(preflightJobId);
  });

  it('POST /uploads: upload.presign.json', () => {
    expectShape('upload.presign.json', upload);
  });

  it('POST /jobs, answered at once: job.lean.json', async () => {
    const res = await api('POST', '/jobs', { body: { sources: [{ file: await onePagePdfBase64(), steps: [{ type: 'preflight', params: { profileId: 'default' } }] }] } });
    expect(res.status).toBe(201);
    expectShape('job.lean.json', res);
  });

  it('GET /jobs/{id} of a finished job with preflight, autofix and validate: job.full.json', async () => {
    const res = await api('GET', `/jobs/${fullJobId}`);
    expect(res.body.job.status).toBe('done');
    expectShape('job.full.json', res);
  });

  it('GET /jobs/{id} of a finished preflight job: job.preflight.json, the report as those clients read it', async () => {
    expectShape('job.preflight.json', await api('GET', `/jobs/${preflightJobId}`));
  });

  it('GET /jobs/{id}?expand=runs: job.runs.json', async () => {
    // Of the preflight job: its proofs are the preflight's (after a validate, the last check's report has none).
    expectShape('job.runs.json', await api('GET', `/jobs/${preflightJobId}?expand=runs`));
  });

  it('GET /jobs: jobs.list.json', async () => {
    const res = await api('GET', '/jobs?customerId=cust_301&limit=5');
    expect(res.body.jobs.length).toBeGreaterThan(0);
    expectShape('jobs.list.json', res);
  });

  describe.skipIf(!target().local)('with loopback sources and receivers (the local runtime)', () => {
    let slow: TestServer;
    let rx: Receiver;
    beforeAll(async () => {
      slow = await slowSourceServer(target().syncWaitMs + 3_000);
      rx = await webhookReceiver(target().webhookSecret!);
    });
    afterAll(async () => {
      await slow?.close();
      await rx?.close();
    });

    it('a sync submission past the wait: job.pending-202.json', async () => {
      const res = await api('POST', '/jobs', { body: { sync: true, sources: [{ url: slow.url, steps: [{ type: 'preflight', params: { profileId: 'default' } }] }] } });
      expect(res.status).toBe(202);
      expectShape('job.pending-202.json', res);
    });

    it('the job.completed webhook body: webhook.job-completed.json', async () => {
      const res = await api('POST', '/jobs', {
        body: { webhook: { url: rx.url }, sources: [{ file: await onePagePdfBase64({ javascript: true }), steps: [{ type: 'preflight' }, { type: 'autofix' }] }] },
      });
      expect(res.status).toBe(201);
      const [hit] = await rx.waitFor(1);
      expectShape('webhook.job-completed.json', { status: 200, headers: new Headers(), body: hit!.json, text: '' });
    });
  });

  it('error bodies: errors/app-400.json, app-404.json, gw-401.json, gw-403.json', async () => {
    expectShape('errors/app-400.json', await api('POST', '/jobs', { body: {} }));
    expectShape('errors/app-404.json', await api('GET', '/jobs/job_01jf8n2q4vxw9k3m5p7r9t1v3x'));
    expectShape('errors/gw-401.json', await api('GET', '/jobs', { key: null }));
    const done = await api('GET', `/jobs/${preflightJobId}`);
    expectShape('errors/gw-403.json', await api('POST', `/jobs/${done.body.job.id}/review`, { body: { decision: 'approve' } }));
  });
});
