/**
 * The shareable proof page (issue 17, docs/api.md §3, Share links) end to end: the shop
 * makes a link with its key; the customer opens it in a real headless Chromium
 * (no key), sees the file's pages with the findings boxed and their sentences,
 * and approves with a note; the job then carries the approval and the
 * account's webhook receives a signed `job.approved`. A tampered, revoked or
 * expired link shows a clear page and nothing of any job. Checked at a phone's
 * viewport (390×844) and with axe-core; a hostile file name shows as text.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signShareToken } from '../../lambdas/domain/share/share-token';
import { SHARE_KEY_FILE } from '../../local/share-key';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64 } from './support/files';
import { target } from './support/target';
import { webhookReceiver, type Receiver } from './support/webhook-receiver';
import { launchBrowser, screenshot, seriousViolations } from './support/browser';

const XSS_NAME = '<img src=x onerror=alert(1)>.pdf';
const PHONE = { width: 390, height: 844 };

let browser: Browser;
let phone: BrowserContext;
const dialogs: string[] = [];
let jobId: string;
let rx: Receiver | null = null;

async function newPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return page;
}

async function shareLink(id: string, body: unknown): Promise<string> {
  const res = await api('POST', `/jobs/${id}/share`, { body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.url as string;
}

/** The link as the customer's browser opens it: on the target's origin (the API's own, locally). */
const onTarget = (url: string): string => new URL(`${new URL(url).pathname}${new URL(url).hash}`, target().baseUrl).toString();

beforeAll(async () => {
  // The local runtime allows loopback webhooks; a deployment's job goes without one.
  if (target().local) rx = await webhookReceiver(target().webhookSecret!);
  const created = await api('POST', '/jobs', {
    body: {
      orderId: `proof-${Date.now()}`,
      ...(rx ? { webhook: rx.url } : {}),
      sources: [{ file: await onePagePdfBase64(), name: XSS_NAME, steps: [{ type: 'preflight' }, { type: 'previews' }] }],
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  jobId = created.body.job.id;
  // Generous: the machine running the suite may be busy (preflight and previews are CPU-bound).
  await waitForJob(jobId, 240_000);
  browser = await launchBrowser();
  phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await rx?.close();
});

describe('the shared proof page', () => {
  it('is served at /proof with the console\'s strict Content-Security-Policy and its own hashed script', async () => {
    const res = await fetch(new URL('proof', target().baseUrl));
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await res.text();
    expect(html).toMatch(/<script type="module" src="\/assets\/proof-[A-Z0-9]+\.js"><\/script>/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/proof-styles-[A-Z0-9]+\.css" \/>/);
  });

  it('shows the customer the pages with the findings boxed, on a phone, and takes an approval with a note', async () => {
    const url = await shareLink(jobId, { allowDecision: true });
    expect(url).toMatch(/\/proof#ps1\./);
    const page = await newPage(phone);
    await page.goto(onTarget(url));
    await page.getByRole('heading', { name: 'Your proof' }).waitFor();

    // The hostile name is text, in the heading, and ran nothing.
    await expect.poll(() => page.locator('h2.file-name').textContent()).toBe(XSS_NAME);
    expect(await page.locator('main img[src="x"]').count()).toBe(0);

    // The findings with the report's sentences, numbered; Helvetica is not embedded in this card.
    const shared = (await api('GET', '/share', { key: null, headers: { 'share-token': new URL(url).hash.slice(1) } })).body;
    const findings = shared.files[0].findings as { number: number; message: string }[];
    expect(findings.length).toBeGreaterThan(0);
    const list = page.getByRole('list', { name: `Findings in ${XSS_NAME}` });
    for (const f of findings) await expect.poll(() => list.textContent()).toContain(f.message);
    expect(findings.map((f) => f.message).join(' ')).toMatch(/embed/i);

    // The page image, with every box the view gives drawn where it says, in percent of the image.
    const image = page.getByRole('img', { name: `Page 1 of ${XSS_NAME}` });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- run in the page; this file is type-checked without the DOM's types
    await expect.poll(() => image.evaluate((img: any) => img.complete === true && img.naturalWidth > 0)).toBe(true);
    const boxes = shared.files[0].pages[0].boxes as { finding: number; left: number; top: number; width: number }[];
    expect(boxes.length).toBeGreaterThan(0);
    const imageBox = (await image.boundingBox())!;
    const first = (await page.locator('.page-image .box').first().boundingBox())!;
    expect(first.x).toBeCloseTo(imageBox.x + (boxes[0]!.left / 100) * imageBox.width, 0);
    expect(first.y).toBeCloseTo(imageBox.y + (boxes[0]!.top / 100) * imageBox.height, 0);

    // Nothing wider than the phone.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'proof-01-phone');
    expect(await seriousViolations(page)).toEqual([]);

    // Choosing a finding highlights its boxes (and only its).
    const boxed = boxes[0]!.finding;
    await list.getByRole('listitem').nth(boxed - 1).getByRole('button').click();
    expect(await page.locator('.box-selected').count()).toBe(boxes.filter((b) => b.finding === boxed).length);

    await page.getByLabel('Note for the print shop (optional)').fill('Looks right — print 500.');
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Approved' }).waitFor();
    await expect.poll(() => page.locator('.note').textContent()).toBe('Looks right — print 500.');
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    await screenshot(page, 'proof-02-approved-phone');
    expect(await seriousViolations(page)).toEqual([]);
    expect(dialogs).toEqual([]);

    const job = (await api('GET', `/jobs/${jobId}`)).body.job;
    expect(job.approval).toEqual({ decision: 'approved', note: 'Looks right — print 500.', at: expect.any(String) });
    await page.close();
  });

  it.skipIf(!target().local)('delivers the signed job.approved webhook to the job\'s receiver', async () => {
    const hits = await rx!.waitFor(2, 30_000);
    const approved = hits.find((h) => h.json?.type === 'job.approved');
    expect(approved, JSON.stringify(hits.map((h) => h.json?.type))).toBeDefined();
    expect(approved!.signatureError).toBeNull();
    expect(approved!.headers['webhook-id']).toBe(`msg_${jobId}_decision`);
    expect(approved!.json).toMatchObject({ id: jobId, status: 'done', approval: { decision: 'approved', note: 'Looks right — print 500.' } });
    expect(approved!.body).not.toMatch(/X-Amz-Signature|downloadUrl/);
    // job.completed came first, under its own id.
    expect(hits.find((h) => h.json?.type === 'job.completed')!.headers['webhook-id']).toBe(`msg_${jobId}`);
  });

  it('shows a clear page for a tampered link, and for a revoked one, never a job', async () => {
    const url = await shareLink(jobId, {});
    // A character in the middle of the MAC: every one of its bits counts.
    const middle = url.length - 20;
    const tampered = url.slice(0, middle) + (url[middle] === 'A' ? 'B' : 'A') + url.slice(middle + 1);
    const page = await newPage(phone);
    await page.goto(onTarget(tampered));
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    expect(await page.locator('h2.file-name').count()).toBe(0);
    await screenshot(page, 'proof-03-tampered-phone');
    expect(await seriousViolations(page)).toEqual([]);

    expect((await api('DELETE', `/jobs/${jobId}/share`)).status).toBe(204);
    await page.goto('about:blank');
    await page.goto(onTarget(url));
    await page.getByRole('heading', { name: 'This link was withdrawn' }).waitFor();
    expect(await page.locator('h2.file-name').count()).toBe(0);
    await page.close();
  });

  // Only the local runtime's key is at hand to make a link that is already past its time.
  it.skipIf(!target().local)('shows a clear page for an expired link', async () => {
    const key = Buffer.from(readFileSync(path.join(target().dataDir!, SHARE_KEY_FILE), 'utf8').trim(), 'utf8');
    const job = (await api('GET', `/jobs/${jobId}`)).body.job;
    const generation = 1; // the revocation in the test before raised it from 0
    const token = signShareToken(key, { jobId, accountId: 'local', generation, expiresAt: Math.floor(Date.now() / 1000) - 60, allowDecision: true });
    expect(job.id).toBe(jobId);
    const page = await newPage(phone);
    await page.goto(new URL(`proof#${token}`, target().baseUrl).toString());
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(await page.locator('h2.file-name').count()).toBe(0);
    await screenshot(page, 'proof-04-expired-phone');
    expect(await seriousViolations(page)).toEqual([]);
    await page.close();
  });

  it('shows the same proof on a desktop, the decision already made', async () => {
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await newPage(desktop);
    await page.goto(onTarget(await shareLink(jobId, { allowDecision: true })));
    await page.getByRole('heading', { name: 'Approved' }).waitFor();
    await page.getByRole('img', { name: `Page 1 of ${XSS_NAME}` }).waitFor();
    await screenshot(page, 'proof-05-desktop');
    expect(await seriousViolations(page)).toEqual([]);
    await desktop.close();
  });
});
