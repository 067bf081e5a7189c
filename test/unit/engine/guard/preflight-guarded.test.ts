import { afterAll, describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { endWarmEngineThreads } from '../../../../lambdas/engine/guard/engine-thread';
import { preflightGuarded, preflightLimits } from '../../../../lambdas/engine/guard/preflight-guarded';
import { preflight, type PreflightInput } from '../../../../lambdas/engine/preflight';
import { loadConfig } from '../../../../lambdas/platform/config';
import { buildPdf, garbageAfterHeader, pngBytes } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';
import { manyPages } from './hostile-pdfs';

const files = tempFiles('guarded');
afterAll(() => endWarmEngineThreads());

const pdfInput = (path: string): PreflightInput => ({ path, fileType: 'pdf', profileId: 'default', context: null });
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: Error) => e);

describe('preflightGuarded', () => {
  it('gives exactly the result preflight gives, for a PDF and for an image', async () => {
    const pdf = pdfInput(files.write(await buildPdf({ pages: 2, documentJavaScript: 'app.alert(1)' }), 'pdf'));
    expect(await preflightGuarded(pdf)).toEqual(await preflight(pdf));
    const png: PreflightInput = { path: files.write(await pngBytes(), 'png'), fileType: 'raster', profileId: 'default', context: null };
    expect(await preflightGuarded(png)).toEqual(await preflight(png));
  });

  it('tells the caller, while it runs, how many of the file\'s pages it has analysed', async () => {
    const reports: [number, number][] = [];
    const pdf = pdfInput(files.write(await buildPdf({ pages: 6 }), 'pdf'));
    await preflightGuarded(pdf, {}, (done, total) => reports.push([done, total]));
    // The first and the last report always come; those between at most every quarter second.
    expect(reports[0]).toEqual([0, 6]);
    expect(reports.at(-1)).toEqual([6, 6]);
    expect(reports.every(([done, total], i) => total === 6 && (i === 0 || done > reports[i - 1]![0]))).toBe(true);
    // Called directly, outside a guarded thread, preflight reports to nobody and is the same.
    expect(await preflight(pdf)).toEqual(await preflightGuarded(pdf));
  });

  it('refuses an unreadable file with the sentence preflight gives', async () => {
    const input = pdfInput(files.write(garbageAfterHeader(), 'pdf'));
    const direct = await failure(preflight(input));
    const guarded = await failure(preflightGuarded(input));
    expect(guarded).toBeInstanceOf(UnprocessableFileError);
    expect(guarded?.message).toBe(direct?.message);
  });

  describe('on a file too big for its limits (a page tree of 100,000 pages)', () => {
    let path: string;
    it('stops at the time budget with a sentence naming it', async () => {
      path = files.write(manyPages(100_000), 'pdf');
      const err = await failure(preflightGuarded(pdfInput(path), { timeoutMs: 300 }));
      expect(err).toBeInstanceOf(UnprocessableFileError);
      expect(err?.message).toMatch(/^Preflight stopped after 0\.3 s: the file is too complex to check within the time limit\. Simplify it/);
    });

    it('stops at the heap limit with a sentence naming it', async () => {
      const err = await failure(preflightGuarded(pdfInput(path), { maxHeapMb: 48 }));
      expect(err).toBeInstanceOf(UnprocessableFileError);
      expect(err?.message).toMatch(/^Preflight stopped: the file needs more than 48 MB of memory to check\. Simplify it/);
    });
  });
});

describe('preflight limits from configuration', () => {
  it('default to 60 s, a heap of 60% of the function’s memory, 256 MB per stream and 4 GB per document', () => {
    expect(preflightLimits(loadConfig({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008' }))).toEqual({
      timeoutMs: 60_000,
      maxHeapMb: 1804,
      maxStreamDecodedMb: 256,
      maxDocumentDecodedMb: 4096,
    });
  });

  it('follow PREFLIGHT_TIMEOUT_SECONDS, ENGINE_MAX_HEAP_MB, ENGINE_MAX_STREAM_MB and ENGINE_MAX_DECODED_MB', () => {
    const env = { PREFLIGHT_TIMEOUT_SECONDS: '120', ENGINE_MAX_HEAP_MB: '900', ENGINE_MAX_STREAM_MB: '64', ENGINE_MAX_DECODED_MB: '1024' };
    expect(preflightLimits(loadConfig(env))).toEqual({ timeoutMs: 120_000, maxHeapMb: 900, maxStreamDecodedMb: 64, maxDocumentDecodedMb: 1024 });
  });

  it('refuse a limit of zero', () => {
    expect(() => loadConfig({ PREFLIGHT_TIMEOUT_SECONDS: '0' })).toThrow(/PREFLIGHT_TIMEOUT_SECONDS must be a positive number/);
  });
});
