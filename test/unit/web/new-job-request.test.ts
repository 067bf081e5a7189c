/**
 * web/src/new-job-request.ts: the New job form's checks, the fileRefs it collects, and the
 * POST /jobs body it builds, held to the API's own request schema.
 */
import { describe, expect, it } from 'vitest';
import { buildJobRequest, EMPTY_FORM, fileRefsOf, OPERATIONS, sourceName, type FileEntry, type NewJobForm } from '../../../web/src/new-job-request';
import { createJobBody } from '../../../lambdas/api/schemas/create-job-body';
import { preflightJobRequest, preflightJobBody } from '../../../lambdas/api/schemas/preflight-job-body';
import { fixJobBody, fixJobRequest } from '../../../lambdas/api/schemas/fix-job-body';
import { jobRequestOf } from '../../../lambdas/api/schemas/create-job-body';

const uploaded = (name: string, fileRef: string): FileEntry => ({ name, state: 'uploaded', fileRef });
const ONE = [uploaded('card.pdf', 'upload_01jz0000000000000000000001')];
const form = (change: Partial<NewJobForm> = {}): NewJobForm => ({ ...EMPTY_FORM, ...change });

function body(f: NewJobForm, files: FileEntry[] = ONE): Record<string, unknown> {
  const built = buildJobRequest(f, files);
  if (!built.ok) throw new Error(JSON.stringify(built.errors));
  return built.body;
}

describe('collecting the uploads a job is made of', () => {
  it('gives every uploaded file as a fileRef source with its name', () => {
    const files = [uploaded('a.pdf', 'upload_a'), uploaded('<img src=x onerror=alert(1)>.pdf', 'upload_b')];
    expect(fileRefsOf(files)).toEqual({
      ok: true,
      sources: [
        { fileRef: 'upload_a', name: 'a.pdf' },
        { fileRef: 'upload_b', name: '<img src=x onerror=alert(1)>.pdf' },
      ],
    });
  });

  it('waits for uploads under way, and will not drop a failed file silently', () => {
    expect(fileRefsOf([])).toEqual({ ok: false, problem: 'Add at least one file.' });
    expect(fileRefsOf([...ONE, { name: 'b.pdf', state: 'uploading', fileRef: null }])).toEqual({ ok: false, problem: 'Wait until every file is uploaded (1 still uploading).' });
    expect(fileRefsOf([...ONE, { name: 'b.pdf', state: 'checking', fileRef: null }])).toMatchObject({ ok: false });
    expect(fileRefsOf([...ONE, { name: 'b.doc', state: 'failed', fileRef: null }])).toEqual({ ok: false, problem: 'Remove or retry the file that could not be uploaded.' });
  });

  it('takes at most the 50 sources a job takes', () => {
    const many = Array.from({ length: 51 }, (_, i) => uploaded(`${i}.pdf`, `upload_${i}`));
    expect(fileRefsOf(many)).toEqual({ ok: false, problem: 'A job takes at most 50 files; remove 1.' });
    expect(fileRefsOf(many.slice(1)).ok).toBe(true);
  });

  it('keeps a name as the API takes it: no control characters, at most 255 characters', () => {
    expect(sourceName('a\u0000b\nc.pdf')).toBe('abc.pdf');
    expect(sourceName('\u0007')).toBe('file');
    expect([...sourceName(`${'ü'.repeat(300)}.pdf`)]).toHaveLength(255);
  });
});

describe('the POST /jobs body', () => {
  it('is accepted by the API for every operation', () => {
    for (const op of OPERATIONS) {
      const b = body(form({ operation: op.id, validateCodes: ['2b'] }));
      const parsed = createJobBody.safeParse(b);
      expect(parsed.success, `${op.id}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
  });

  it('runs the steps the convenience endpoints would (docs/api.md §3), so the job is the same', () => {
    const f = form({ profileId: 'gwg-sheetfed-cmyk' });
    const source = { fileRef: 'upload_01jz0000000000000000000001', name: 'card.pdf' };
    const viaJobs = (op: NewJobForm['operation']) => jobRequestOf(createJobBody.parse(body({ ...f, operation: op }))).sources[0]!.steps;
    // What runs is the same; only the field an unknown profile is reported at differs (`profileId` of the source there).
    const runs = (steps: ReturnType<typeof viaJobs>) => steps.map(({ profileParam: _, ...step }) => step);
    expect(viaJobs('preflight')).toEqual(runs(preflightJobRequest(preflightJobBody.parse({ sources: [{ ...source, profileId: 'gwg-sheetfed-cmyk' }] })).sources[0]!.steps));
    expect(viaJobs('fix')).toEqual(runs(fixJobRequest(fixJobBody.parse({ sources: [{ ...source, profileId: 'gwg-sheetfed-cmyk' }], repreflight: true })).sources[0]!.steps));
    expect(viaJobs('pipeline').map((s) => s.type)).toEqual(['preflight', 'autofix', 'repreflight', 'previews']);
  });

  it('sends one validate code as a code and several as a list', () => {
    const steps = (codes: string[]) => (body(form({ operation: 'validate', validateCodes: codes })).sources as any[])[0].steps;
    expect(steps(['ua1'])).toEqual([{ type: 'validate', params: { profile: 'ua1' } }]);
    expect(steps(['2b', 'ua1'])).toEqual([{ type: 'validate', params: { profile: ['2b', 'ua1'] } }]);
  });

  it('carries the order and its context (§6) as typed, and leaves out what was left empty', () => {
    const b = body(
      form({ orderId: ' order-1001 ', customerId: 'cust-7', customerEmail: 'buyer@example.com', onFail: 'manual_review', widthMm: '85', heightMm: '55,5', bleedMm: '3', safetyMm: '0', pagesMin: '1', pagesMax: '2', filesMax: '4' }),
    );
    expect(b).toEqual({
      sources: [{ fileRef: 'upload_01jz0000000000000000000001', name: 'card.pdf', steps: [{ type: 'preflight', params: { profileId: 'default' } }] }],
      orderId: 'order-1001',
      customerId: 'cust-7',
      customerEmail: 'buyer@example.com',
      policy: { onFail: 'manual_review' },
      context: { artworkSize: { width_mm: 85, height_mm: 55.5 }, pageCount: { min: 1, max: 2 }, fileCount: { max: 4 }, bleed: { required_mm: 3 }, safety: { min_mm: 0 } },
    });
    expect(body(form())).toEqual({ sources: expect.any(Array), policy: { onFail: 'reject' } });
  });
});

describe('what the form asks staff to correct', () => {
  const errors = (change: Partial<NewJobForm>, files: FileEntry[] = ONE) => {
    const built = buildJobRequest(form(change), files);
    return built.ok ? {} : built.errors;
  };

  it('names each wrong field with a sentence', () => {
    expect(errors({}, [])).toEqual({ files: 'Add at least one file.' });
    expect(errors({ operation: 'validate' })).toEqual({ validateCodes: 'Choose at least one standard to validate against.' });
    expect(errors({ customerEmail: 'not an address' })).toEqual({ customerEmail: 'Enter an e-mail address such as buyer@example.com.' });
    expect(errors({ orderId: 'x'.repeat(129) })).toEqual({ orderId: 'At most 128 characters.' });
    expect(errors({ widthMm: '85' })).toEqual({ heightMm: 'Give both the width and the height of the artwork, or neither.' });
    expect(errors({ widthMm: '0', heightMm: 'wide' })).toEqual({ widthMm: 'Enter a number above 0.', heightMm: 'Enter a number.' });
    expect(errors({ pagesMin: '1.5' })).toEqual({ pagesMin: 'Enter a whole number.' });
    expect(errors({ pagesMin: '4', pagesMax: '2' })).toEqual({ pagesMax: 'The maximum must not be below the minimum.' });
    expect(errors({ bleedMm: '-1' })).toEqual({ bleedMm: 'Enter 0 or more.' });
  });

  it('gathers every problem at once, not the first only', () => {
    expect(Object.keys(errors({ operation: 'validate', customerEmail: 'x', filesMin: 'a' }, [])).sort()).toEqual(['customerEmail', 'files', 'filesMin', 'validateCodes']);
  });
});
