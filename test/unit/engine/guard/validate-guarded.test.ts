import { afterAll, describe, expect, it } from 'vitest';
import { UnprocessableFileError } from '../../../../lambdas/domain/errors';
import { endWarmEngineThreads } from '../../../../lambdas/engine/guard/engine-thread';
import { validateGuarded, validateLimits } from '../../../../lambdas/engine/guard/validate-guarded';
import { validate } from '../../../../lambdas/engine/validate';
import { loadConfig } from '../../../../lambdas/platform/config';
import { buildPdf, garbageAfterHeader, pdfaSpec } from '../../../support/pdf-fixtures';
import { tempFiles } from '../temp-files';
import { manyPages } from './hostile-pdfs';

const files = tempFiles('validate-guarded');
afterAll(() => endWarmEngineThreads());
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: Error) => e);

describe('validateGuarded', () => {
  it('gives exactly the verdict validate gives', async () => {
    const input = { path: files.write(await buildPdf(pdfaSpec(2, 'B')), 'pdf'), profiles: ['2b' as const, 'ua1' as const] };
    expect(await validateGuarded(input)).toEqual(await validate(input));
  });

  it('refuses an unreadable file with the sentence validate gives, not a verdict', async () => {
    const input = { path: files.write(garbageAfterHeader(), 'pdf'), profiles: ['2b' as const] };
    const direct = await failure(validate(input));
    const guarded = await failure(validateGuarded(input));
    expect(guarded).toBeInstanceOf(UnprocessableFileError);
    expect(guarded?.message).toBe(direct?.message);
  });

  it('stops at the time budget with a sentence naming it (a page tree of 100,000 pages)', async () => {
    const err = await failure(validateGuarded({ path: files.write(manyPages(100_000), 'pdf'), profiles: ['2b'] }, { timeoutMs: 300 }));
    expect(err).toBeInstanceOf(UnprocessableFileError);
    expect(err?.message).toMatch(/^Validation stopped after 0\.3 s: the file is too complex to validate within the time limit\./);
  });
});

describe('validation limits from configuration', () => {
  it('default to 60 s and follow VALIDATE_TIMEOUT_SECONDS, sharing the engine heap and decode limits', () => {
    expect(validateLimits(loadConfig({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '3008' }))).toEqual({ timeoutMs: 60_000, maxHeapMb: 1804, maxStreamDecodedMb: 256, maxDocumentDecodedMb: 4096 });
    expect(validateLimits(loadConfig({ VALIDATE_TIMEOUT_SECONDS: '120', ENGINE_MAX_HEAP_MB: '900' }))).toMatchObject({ timeoutMs: 120_000, maxHeapMb: 900 });
    expect(() => loadConfig({ VALIDATE_TIMEOUT_SECONDS: '0' })).toThrow(/VALIDATE_TIMEOUT_SECONDS must be a positive number/);
  });
});
