/**
 * The web console (issue 17) in a real headless Chromium against the runtime: signing in with a
 * key kept in sessionStorage only, the jobs list with filters, a job's page, the security headers,
 * a hostile file name shown as text, and axe-core's checks on every page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64, onePagePdfBytes } from './support/files';
import { serve } from './support/source-server';
import { target } from './support/target';
import { launchBrowser, recordDialogs, screenshot, seriousViolations, XSS_NAME } from './support/browser';

const ORDER = `console-${Date.now()}`;

let browser: Browser;
let context: BrowserContext;
let page: Page;
const dialogs: string[] = [];
let doneJobId: string;

async function signIn(p: Page, key: string): Promise<void> {
  await p.goto(target().baseUrl);
  await p.getByLabel('API key').fill(key);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

beforeAll(async () => {
  const file = await onePagePdfBase64();
  const created = await api('POST', '/jobs', { body: { orderId: ORDER, customerId: 'cust-7', sources: [{ file, name: XSS_NAME, steps: [{ type: 'preflight' }] }] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  doneJobId = created.body.job.id;
  await waitForJob(doneJobId);
  const other = await api('POST', '/jobs', { body: { orderId: `${ORDER}-other`, sources: [{ file, name: 'other.pdf', steps: [{ type: 'preflight' }] }] } });
  await waitForJob(other.body.job.id);

  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await context.newPage();
  recordDialogs(page, dialogs);
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('the console', () => {
  it('is served at the root with a strict Content-Security-Policy, hashed assets and no inline script', async () => {
    const res = await fetch(target().baseUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const html = await res.text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(body!.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attrs!)![1]!;
      expect(src).toMatch(/^\/assets\/console-[A-Z0-9]+\.js$/);
      const asset = await fetch(new URL(src, target().baseUrl));
      expect(asset.headers.get('cache-control')).toContain('immutable');
    }
  });

  it('refuses a wrong key with a sentence, and keeps a right one in sessionStorage only', async () => {
    await signIn(page, 'sk_live_not_a_real_key_000000000000');
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not accepted/);
    await screenshot(page, '01-sign-in-refused');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('API key').fill(target().key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Jobs' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(1);
    expect(await page.evaluate('localStorage.length')).toBe(0);
    expect(page.url()).not.toContain(target().key);
  });

  it('lists the jobs newest first and filters them by order id and channel; a hostile file name is text, never markup', async () => {
    await page.getByLabel('Order id').fill(ORDER);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const rows = page.locator('table.jobs tbody tr');
    const ids = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-job-id')));
    await expect.poll(ids).toEqual([doneJobId]);
    // And it stays so: no answer to an earlier, unfiltered request replaces it.
    await new Promise((r) => setTimeout(r, 3500));
    expect(await ids()).toEqual([doneJobId]);
    const row = rows.first();
    expect(await row.locator('td').nth(1).textContent()).toBe(XSS_NAME);
    expect(await row.textContent()).toContain('done');
    expect(await row.textContent()).toContain('cust-7');
    expect(await page.locator('table.jobs img').count()).toBe(0);
    await screenshot(page, '02-jobs-filtered');
    expect(await seriousViolations(page)).toEqual([]);
    // The channel narrows too: the job came in by the API, so the store's channel lists none of it.
    await page.getByLabel('Channel').selectOption('store');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(ids).toEqual([]);
    await page.getByLabel('Channel').selectOption('api');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(ids).toEqual([doneJobId]);
  });

  it('shows a running job\'s progress as a bar with its words on its row', async () => {
    // A source that is not served until the test says so keeps the job running meanwhile.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const bytes = await onePagePdfBytes();
    const source = await serve(async (_req, res) => {
      await held;
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.end(Buffer.from(bytes));
    });
    try {
      const created = await api('POST', '/jobs', { body: { orderId: `${ORDER}-running`, sources: [{ url: source.url, name: 'running.pdf', steps: [{ type: 'preflight' }, { type: 'previews' }] }] } });
      expect(created.status, created.text).toBe(201);
      await page.getByLabel('Order id').fill(`${ORDER}-running`);
      await page.getByRole('button', { name: 'Apply filters' }).click();
      const bar = page.getByRole('progressbar', { name: `Progress of job ${created.body.job.id}` });
      await bar.waitFor();
      expect(await bar.getAttribute('value')).toBe('0');
      expect(await page.locator('table.jobs tbody tr .progress-words').textContent()).toBe('0 % · 0 of 2 steps');
      await screenshot(page, '02b-jobs-running');
      expect(await seriousViolations(page)).toEqual([]);
      release();
      await waitForJob(created.body.job.id, 120_000);
      // Once it has finished, its row shows no bar.
      await expect.poll(() => bar.count(), { timeout: 20_000 }).toBe(0);
    } finally {
      release();
      await source.close();
    }
    await page.getByLabel('Order id').fill(ORDER);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByRole('link', { name: doneJobId }).waitFor();
  }, 180_000);

  it('opens a job: its facts, each file with its steps, downloads and audit log', async () => {
    await page.getByRole('link', { name: doneJobId }).click();
    await page.getByRole('heading', { name: `Job ${doneJobId}` }).waitFor();
    const task = page.locator('section.task').first();
    await expect.poll(() => task.locator('h2').textContent()).toBe(XSS_NAME);
    expect(await task.locator('.steps').textContent()).toMatch(/preflight.*done/);
    const download = task.locator('.downloads a').first();
    expect(await download.textContent()).toBe(XSS_NAME);
    const href = (await download.getAttribute('href'))!;
    expect((await fetch(href)).status).toBe(200);
    expect(await task.locator('.timeline li').count()).toBeGreaterThan(1);
    // Each file's progress: finished, all its steps and pages.
    const bar = task.getByRole('progressbar', { name: `Progress of ${XSS_NAME}` });
    expect(await bar.getAttribute('value')).toBe('100');
    expect(await task.locator('.progress-words').textContent()).toBe('100 % · 1 of 1 step, 1 of 1 page');
    expect(await page.locator('section.task img').count()).toBe(0);
    await screenshot(page, '03-job');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('ran no script from a file name', () => {
    expect(dialogs).toEqual([]);
  });

  it('has an accessibility check that sees a planted violation (so its empty lists above mean something)', async () => {
    await page.evaluate("document.getElementById('main').insertAdjacentHTML('beforeend', '<input id=planted type=text>')");
    expect((await seriousViolations(page)).map((v) => v.id)).toContain('label');
    await page.evaluate("document.getElementById('planted').remove()");
  });

  it('forgets the key on sign out', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
  });
});
