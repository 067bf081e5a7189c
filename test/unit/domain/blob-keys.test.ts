import { describe, expect, it } from 'vitest';
import { keyExtension, sourceKey, stepOutputKey } from '../../../lambdas/domain/blob-keys';

describe('object keys carry no name a customer chose', () => {
  const japanese = `${'請求書'.repeat(10)}.pdf`;

  it('the source key is original plus a short extension, whatever the name', () => {
    expect(sourceKey('acct', 'job_1', 'task_1', japanese)).toBe('acct/jobs/job_1/task_1/source/original.pdf');
    expect(sourceKey('acct', 'job_1', 'task_1', '../../../etc/passwd')).toBe('acct/jobs/job_1/task_1/source/original');
    expect(sourceKey('acct', 'job_1', 'task_1', 'Visitenkarte Müller.PDF')).toBe('acct/jobs/job_1/task_1/source/original.pdf');
  });

  it('keeps an extension only when it is 1–5 letters or digits', () => {
    expect(keyExtension('photo.JPEG')).toBe('.jpeg');
    expect(keyExtension('scan.tif')).toBe('.tif');
    expect(keyExtension('archive.tar.gz')).toBe('.gz');
    expect(keyExtension('report.final version')).toBe('');
    expect(keyExtension('name.日本語')).toBe('');
    expect(keyExtension('evil.pdf\u202e')).toBe('');
    expect(keyExtension('no-extension')).toBe('');
    expect(keyExtension('too.longext')).toBe('');
  });

  it('step outputs are keyed by the names the steps choose', () => {
    expect(stepOutputKey('acct', 'job_1', 'task_1', 'step_1', 'fixed.pdf')).toBe('acct/jobs/job_1/task_1/step_1/fixed.pdf');
  });
});
