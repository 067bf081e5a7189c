/**
 * Share links (docs/api.md §3, Share links) through the handlers: POST/DELETE /jobs/{id}/share
 * with a key, GET /share and POST /share/decision with the link's token only.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { handler as authorizer } from '../../../lambdas/api/authorizer';
import type { OnFail } from '../../../lambdas/domain/model';
import { signShareToken } from '../../../lambdas/domain/share/share-token';
import { setServices } from '../../../lambdas/platform/services';
import { startTestServices, type TestServices } from '../../support/test-services';
import { ACCOUNT_A, ACCOUNT_B, call } from './support/api-client';
import { finishJob } from './support/pipeline-stand-in';

const URL_SOURCE = 'http://127.0.0.1:9/files/card.pdf?token=customer-secret';
const HOST = { Host: 'proofs.example.com', 'X-Forwarded-Proto': 'https' };

/** A report with two findings: one framed twice on page 1 (and once off the page), one at its worst hit on page 2. */
const REPORT = {
  profile: { id: 'default', name: 'Default' },
  outcome: 'fail',
  summary: { errors: 1, warnings: 1, infos: 0, pages: 2 },
  findings: [
    {
      checkId: 'images.resolution-low', severity: 'error', message: 'An image on page 1 is only 96 ppi; print needs 300.',
      page: 1, count: 2, bbox: [0, 0, 100, 100], bboxPage: 1, fix: { available: false, fixId: null },
      locations: [{ page: 1, bbox: [0, 692, 306, 792] }, { page: 1, bbox: [306, -100, 700, 396] }, { page: 1, bbox: [0, 800, 100, 900] }],
    },
    { checkId: 'text.small', severity: 'warn', message: 'Text on page 2 is smaller than 6 pt.', page: 2, count: 1, bbox: [61.2, 79.2, 122.4, 158.4], bboxPage: 2, fix: { available: true, fixId: 'x' } },
  ],
  recommendedFixes: [],
  pages: [1, 2].map((page) => ({ page, mediaBox: [0, 0, 612, 792], cropBox: null, trimBox: page === 1 ? [9, 9, 603, 783] : null, bleedBox: null, rotation: 0, userUnit: 1 })),
};

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(() => t?.stop());
beforeEach(() => setServices(t.services));

async function job(options: { onFail?: OnFail; finish?: boolean; webhook?: boolean; steps?: string[] } = {}): Promise<string> {
  const body = {
    policy: { onFail: options.onFail ?? 'reject' },
    sources: [{ url: URL_SOURCE, steps: (options.steps ?? ['preflight', 'previews']).map((type) => ({ type })) }],
    ...(options.webhook ? { webhook: { url: 'http://127.0.0.1:9/hook' } } : {}),
  };
  const id = (await call('POST', '/jobs', { body })).body.job.id as string;
  if (options.finish !== false) await finishJob(t.services, ACCOUNT_A.accountId, id, { verdict: 'fail', report: REPORT });
  return id;
}

const share = (id: string, body: unknown = {}, caller = ACCOUNT_A) => call('POST', `/jobs/${id}/share`, { caller, body, headers: HOST });
const tokenOf = (url: string): string => url.slice(url.indexOf('#') + 1);
const view = (token: string | undefined) => call('GET', '/share', { caller: null, headers: token === undefined ? {} : { 'Share-Token': token } });
const decide = (token: string, body: unknown) => call('POST', '/share/decision', { caller: null, body, headers: { 'Share-Token': token } });

async function linkTo(id: string, body: unknown = {}): Promise<string> {
  const res = await share(id, body);
  expect(res.status).toBe(201);
  return tokenOf(res.body.url);
}

describe('POST /jobs/{id}/share', () => {
  it('answers 201 with a /proof link on the request\'s origin, the token in the fragment, expiring in 7 days by default', async () => {
    const id = await job();
    const before = Date.now();
    const res = await share(id);
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^https:\/\/proofs\.example\.com\/proof#ps1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const expires = Date.parse(res.body.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 7 * 86400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7 * 86400_000);
  });

  it('takes expiresInSeconds up to 30 days and refuses more, less than a minute, or unknown fields with 400', async () => {
    const id = await job({ finish: false });
    expect((await share(id, { expiresInSeconds: 30 * 86400 })).status).toBe(201);
    for (const body of [{ expiresInSeconds: 30 * 86400 + 1 }, { expiresInSeconds: 59 }, { expiresInSeconds: 1.5 }, { allowDecision: 'yes' }, { ttl: 60 }]) {
      const res = await share(id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });

  it('answers 404 for another account\'s job, as every job route does', async () => {
    const id = await job({ finish: false });
    const res = await share(id, {}, ACCOUNT_B);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await call('DELETE', `/jobs/${id}/share`, { caller: ACCOUNT_B })).status).toBe(404);
  });
});

describe('GET /share', () => {
  it('shows the one job, read-only: file name, findings with their sentences, pages with boxes in percent of the image', async () => {
    const id = await job();
    const res = await view(await linkTo(id));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.job).toMatchObject({ id, status: 'done', outcome: 'fail', finished: true });
    expect(res.body.share.allowDecision).toBe(false);
    expect(res.body.approval).toBeNull();
    const [file] = res.body.files;
    // The name is from the URL's path: the query (the customer's credentials) is never shown.
    expect(file.name).toBe('card.pdf');
    expect(JSON.stringify(res.body)).not.toContain('customer-secret');
    expect(file.preflight).toEqual({ outcome: 'fail', errors: 1, warnings: 1, infos: 0 });
    expect(file.findings).toEqual([
      { number: 1, severity: 'error', message: 'An image on page 1 is only 96 ppi; print needs 300.', pages: [1], fixable: false },
      { number: 2, severity: 'warn', message: 'Text on page 2 is smaller than 6 pt.', pages: [2], fixable: true },
    ]);
    expect(file.pages.map((p: { page: number }) => p.page)).toEqual([1, 2]);
    const [one, two] = file.pages;
    expect(one.previewUrl).toMatch(/^http/);
    // Top left quarter-width strip and bottom right quarter of a US Letter page (that box clipped to the page);
    // the box above the page is left out.
    expect(one.boxes).toEqual([
      { finding: 1, severity: 'error', left: 0, top: 0, width: 50, height: 12.63 },
      { finding: 1, severity: 'error', left: 50, top: 50, width: 50, height: 50 },
    ]);
    expect(one.trimBox).toEqual({ left: 1.47, top: 1.14, width: 97.06, height: 97.73 });
    expect(two.boxes).toEqual([{ finding: 2, severity: 'warn', left: 10, top: 80, width: 10, height: 10 }]);
    // Nothing else of the job or the account.
    expect(Object.keys(res.body).sort()).toEqual(['approval', 'files', 'job', 'share']);
    // (Presigned URLs name the account in the storage key they sign; the fields are what is checked.)
    const withoutUrls = JSON.stringify(res.body, (k, v: unknown) => (/Url$/.test(k) ? 'url' : v));
    expect(withoutUrls).not.toMatch(/acct-a|"bucket"|"key"|webhook|orderId|metaData/);
  });

  it('offers the fixed file when autofix made one', async () => {
    const id = await job({ steps: ['preflight', 'autofix'] });
    const [file] = (await view(await linkTo(id))).body.files;
    expect(file.fixed).toMatchObject({ fileName: 'fixed.pdf', downloadUrl: expect.stringMatching(/^http/) });
  });

  it('refuses a missing or tampered token with 403 share_link_invalid, in the error shape', async () => {
    const id = await job();
    const token = await linkTo(id);
    for (const bad of [undefined, `${token.slice(0, -2)}xx`, `ps1.${Buffer.from(JSON.stringify([id, 'acct-a', 0, 9e9, 1])).toString('base64url')}.${token.split('.')[2]}`]) {
      const res = await view(bad);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: true, code: 'share_link_invalid', message: expect.any(String), requestId: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toContain(id);
    }
  });

  it('refuses an expired token with 410 share_link_expired', async () => {
    const id = await job({ finish: false });
    const key = await t.services.shareKey.signingKey();
    const expired = signShareToken(key, { jobId: id, accountId: ACCOUNT_A.accountId, generation: 0, expiresAt: Math.floor(Date.now() / 1000) - 1, allowDecision: true });
    const res = await view(expired);
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('share_link_expired');
  });

  it('refuses a token bound to another account than the job\'s, as revoked, showing nothing', async () => {
    const id = await job({ finish: false });
    const key = await t.services.shareKey.signingKey();
    const wrong = signShareToken(key, { jobId: id, accountId: ACCOUNT_B.accountId, generation: 0, expiresAt: Math.floor(Date.now() / 1000) + 60, allowDecision: true });
    const res = await view(wrong);
    expect(res.status).toBe(410);
    expect(res.body.code).toBe('share_link_revoked');
  });

  it('stops every earlier link after DELETE /jobs/{id}/share (204), while a link made afterwards works', async () => {
    const id = await job();
    const first = await linkTo(id);
    const second = await linkTo(id, { allowDecision: true });
    const revoked = await call('DELETE', `/jobs/${id}/share`);
    expect(revoked.status).toBe(204);
    expect(revoked.raw).toBe('');
    for (const token of [first, second]) {
      const res = await view(token);
      expect(res.status).toBe(410);
      expect(res.body.code).toBe('share_link_revoked');
    }
    expect((await decide(second, { decision: 'approved' })).body.code).toBe('share_link_revoked');
    expect((await view(await linkTo(id))).status).toBe(200);
  });

  it('is no API key: the authoriser refuses a share token presented as a Bearer key', async () => {
    const token = await linkTo(await job({ finish: false }));
    await expect(authorizer({ type: 'TOKEN', authorizationToken: `Bearer ${token}`, methodArn: 'arn:aws:execute-api:us-east-1:1:api/v1/GET/jobs' })).rejects.toThrow('Unauthorized');
  });
});

describe('POST /share/decision', () => {
  it('records the approval on the job (shown by GET /jobs/{id}) and publishes the job-decision event', async () => {
    const id = await job({ webhook: true });
    const token = await linkTo(id, { allowDecision: true });
    expect((await view(token)).body.share.allowDecision).toBe(true);
    const res = await decide(token, { decision: 'approved', note: 'Looks good, print it.' });
    expect(res.status).toBe(200);
    expect(res.body.approval).toEqual({ decision: 'approved', note: 'Looks good, print it.', at: expect.any(String) });
    const got = (await call('GET', `/jobs/${id}`)).body.job;
    expect(got.approval).toEqual(res.body.approval);
    // The policy is reject: no review is made of it.
    expect(got.review).toBeUndefined();
    expect(t.events.decisions).toContainEqual({ jobId: id, accountId: ACCOUNT_A.accountId, decision: 'approved', hasWebhook: true });
  });

  it('takes one decision per job: a second, through any link, is 409 already_decided', async () => {
    const id = await job();
    const token = await linkTo(id, { allowDecision: true });
    expect((await decide(token, { decision: 'changes_requested', note: 'Move the logo.' })).status).toBe(200);
    const again = await decide(await linkTo(id, { allowDecision: true }), { decision: 'approved' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_decided');
    expect((await call('GET', `/jobs/${id}`)).body.job.approval.decision).toBe('changes_requested');
  });

  it('counts as the review of a job under manual_review: approved lets it proceed, changes requested keep it back', async () => {
    const approvedId = await job({ onFail: 'manual_review' });
    await decide(await linkTo(approvedId, { allowDecision: true }), { decision: 'approved' });
    expect((await call('GET', `/jobs/${approvedId}`)).body.job).toMatchObject({ canProceed: true, review: { decision: 'approve', keyId: 'share-link' } });

    const changesId = await job({ onFail: 'manual_review' });
    await decide(await linkTo(changesId, { allowDecision: true }), { decision: 'changes_requested', note: 'Wrong colour.' });
    expect((await call('GET', `/jobs/${changesId}`)).body.job).toMatchObject({ canProceed: false, review: { decision: 'reject', note: 'Wrong colour.' } });
  });

  it('refuses a view-only link with 403 decision_not_allowed, a running job with 409 job_not_terminal, a bad body with 400', async () => {
    const done = await job();
    const viewOnly = await decide(await linkTo(done), { decision: 'approved' });
    expect(viewOnly.status).toBe(403);
    expect(viewOnly.body.code).toBe('decision_not_allowed');

    const running = await decide(await linkTo(await job({ finish: false }), { allowDecision: true }), { decision: 'approved' });
    expect(running.status).toBe(409);
    expect(running.body.code).toBe('job_not_terminal');

    const token = await linkTo(done, { allowDecision: true });
    for (const body of [{ decision: 'approve' }, { decision: 'approved', note: 'x'.repeat(2001) }, { decision: 'approved', extra: 1 }, {}]) {
      const res = await decide(token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    expect((await call('GET', `/jobs/${done}`)).body.job.approval).toBeUndefined();
  });
});
