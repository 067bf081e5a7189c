/**
 * docs/api.md §2, §4, §5: the canonical POST /jobs with per-source steps, skipping by
 * file type, later steps seeing earlier steps' output, policy and canProceed.
 */
import { describe, expect, it } from 'vitest';
import { api, waitForJob } from './support/client';
import { onePagePdfBase64, pngBase64 } from './support/files';

describe('POST /jobs', () => {
  it('runs each source through its own steps; a step that does not accept the file type is skipped with a reason', async () => {
    const res = await api('POST', '/jobs', {
      body: {
        ruleId: 'rule_business-cards',
        channel: 'store',
        orderId: 'order-1001',
        customerId: 'cust-7',
        customerEmail: 'buyer@example.com',
        metaData: { shop: 'demo' },
        sources: [
          { file: await onePagePdfBase64(), name: 'card.pdf', clientRef: 'pdf', steps: [{ type: 'preflight' }, { type: 'previews', params: { format: 'jpeg', dpi: 36 } }] },
          { file: await pngBase64(), name: 'photo.png', clientRef: 'png', steps: [{ type: 'validate', params: { profile: '2b' } }, { type: 'previews', params: { format: 'png', width: 64 } }] },
        ],
      },
    });
    expect(res.status).toBe(201);
    const created = res.body.job;
    expect(created).toMatchObject({ ruleId: 'rule_business-cards', channel: 'store', orderId: 'order-1001', customerId: 'cust-7', customerEmail: 'buyer@example.com', metaData: { shop: 'demo' }, policy: { onFail: 'reject' } });

    const job = await waitForJob(created.id);
    const [pdf, png] = job.tasks;
    expect(pdf.fileType).toBe('pdf');
    expect(pdf.mimeType).toBe('application/pdf');
    expect(png.fileType).toBe('raster');
    expect(png.mimeType).toBe('image/png');

    const [validate, previews] = png.steps;
    expect(validate.status).toBe('skipped');
    expect(validate.outcome).toBeNull();
    expect(validate.reason).toMatch(/validate/);
    expect(validate.reason).toMatch(/raster/);
    expect(previews.status).toBe('done');
    expect(png.audit.some((e: any) => e.event === 'step.skipped' && e.stepId === validate.id)).toBe(true);
    // No check step ran on the PNG: its outcome is na; the PDF's is its preflight verdict.
    expect(png.outcome).toBe('na');
    expect(pdf.outcome).toBe(pdf.steps[0].outcome);
    expect(job.outcome).toBe(pdf.outcome === 'na' ? 'na' : 'mixed');
    // results carry only step types that ran: validate was skipped.
    expect(Object.keys(job.results).sort()).toEqual(['preflight', 'previews']);

    for (const t of job.tasks) {
      const events = t.audit.map((e: any) => e.event);
      expect(events).toContain('type.detected');
      expect(events).toContain('step.started');
      const times = t.audit.map((e: any) => Date.parse(e.at));
      expect([...times].sort((a, b) => a - b)).toEqual(times);
    }
    for (const s of pdf.steps) {
      expect(s.started).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(s.duration).toBeGreaterThanOrEqual(0);
      expect(s.runtimeParams).toBeTruthy();
    }
  });

  it('later steps work on the file as earlier steps left it', async () => {
    // No TrimBox at first; autofix normalises the boxes; repreflight checks the fixed file.
    const res = await api('POST', '/jobs', {
      body: { sources: [{ file: await onePagePdfBase64({ trimBox: false }), steps: [{ type: 'preflight' }, { type: 'autofix', params: { items: ['boxes.normalize'] } }, { type: 'repreflight' }] }] },
    });
    const job = await waitForJob(res.body.job.id);
    const [before, after] = job.results.preflight.map((p: any) => p.report);
    const trimFindings = (r: any) => r.findings.filter((f: any) => /trim/i.test(f.checkId));
    expect(trimFindings(before).length).toBeGreaterThan(0);
    expect(trimFindings(after)).toEqual([]);
    expect(job.tasks[0].steps[2].runtimeParams.profileId).toBe(job.tasks[0].steps[0].runtimeParams.profileId);
  });

  it('canProceed follows policy.onFail', async () => {
    // A file with an unembedded font fails the default profile.
    const failing = await onePagePdfBase64();
    const make = async (onFail?: string) => {
      const body: any = { sources: [{ file: failing, steps: [{ type: 'preflight' }] }] };
      if (onFail) body.policy = { onFail };
      return waitForJob((await api('POST', '/jobs', { body })).body.job.id);
    };
    const reject = await make();
    expect(reject.outcome).toBe('fail');
    expect(reject.canProceed).toBe(false);
    const accept = await make('accept_with_warnings');
    expect(accept.canProceed).toBe(true);
    const manual = await make('manual_review');
    expect(manual.canProceed).toBe(false);
    expect(manual.policy).toEqual({ onFail: 'manual_review' });
  });

  it('a file that cannot be processed ends its task in error with a reason, and the job is terminal', async () => {
    const garbage = Buffer.from('%PDF-1.7\n' + 'this is not a pdf at all '.repeat(40)).toString('base64');
    const res = await api('POST', '/jobs', { body: { sources: [{ file: garbage, name: 'broken.pdf', steps: [{ type: 'preflight' }, { type: 'previews' }] }] } });
    const job = await waitForJob(res.body.job.id);
    expect(job.status).toBe('error');
    expect(job.outcome).toBeNull();
    expect(job.canProceed).toBe(false);
    const task = job.tasks[0];
    expect(task.status).toBe('error');
    expect(task.outcome).toBeNull();
    expect(task.reason).toBeTruthy();
    expect(task.reason).not.toMatch(/at .*\.ts:\d+/); // no stack traces
    expect(task.steps[0].status).toBe('error');
  });
});
