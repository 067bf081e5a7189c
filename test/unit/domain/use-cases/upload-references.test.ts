/**
 * domain/use-cases/upload-references.ts: a shared upload's file is kept from expiring while a
 * job refers to it, and goes back to its upload's schedule (or away) with the last one.
 */
import { describe, expect, it } from 'vitest';
import { holdUploads, releaseUploads, uploadsUsed, type UploadReferenceDeps } from '../../../../lambdas/domain/use-cases/upload-references';
import type { UploadRecord } from '../../../../lambdas/domain/model';

/** In-memory references and a bucket that remembers each object's tag, with a hook between calls. */
function world(opts: { uploadUsable?: boolean; beforeRetag?: () => Promise<void> } = {}) {
  const refs = new Map<string, Set<string>>();
  const objects = new Map<string, { expiring: boolean }>([['a/uploads/u1', { expiring: true }]]);
  const deps: UploadReferenceDeps = {
    uploads: {
      putUpload: async () => {},
      getUpload: async (_a, id) => (opts.uploadUsable === false ? null : ({ id } as UploadRecord)),
      addReference: async (_a, id, job) => void (refs.get(id) ?? refs.set(id, new Set()).get(id)!).add(job),
      removeReference: async (_a, id, job) => {
        refs.get(id)?.delete(job);
        return refs.get(id)?.size ?? 0;
      },
      referenceCount: async (_a, id) => refs.get(id)?.size ?? 0,
    },
    blobs: {
      setUploadExpiry: async (key: string, expiring: boolean) => {
        if (expiring) await opts.beforeRetag?.();
        const o = objects.get(key);
        if (o) o.expiring = expiring;
      },
      delete: async (key: string) => void objects.delete(key),
    } as unknown as UploadReferenceDeps['blobs'],
  };
  return { deps, refs, objects };
}

const use = { uploadId: 'u1', key: 'a/uploads/u1' };

describe('upload references', () => {
  it('names each upload of a job once, whatever its other sources', () => {
    expect(
      uploadsUsed([
        { kind: 'upload', uploadId: 'u1', key: 'k1' },
        { kind: 'url' },
        { kind: 'upload', uploadId: 'u1', key: 'k1' },
        { kind: 'inline', key: 'k2' },
        { kind: 'upload', uploadId: 'u2', key: 'k3' },
      ]),
    ).toEqual([
      { uploadId: 'u1', key: 'k1' },
      { uploadId: 'u2', key: 'k3' },
    ]);
  });

  it('takes a held file off the expiry schedule until the last job lets go, then puts it back', async () => {
    const { deps, objects } = world();
    await holdUploads(deps, 'a', 'job1', [use]);
    await holdUploads(deps, 'a', 'job2', [use]);
    expect(objects.get(use.key)).toEqual({ expiring: false });
    await releaseUploads(deps, 'a', 'job1', [use]);
    expect(objects.get(use.key)).toEqual({ expiring: false });
    await releaseUploads(deps, 'a', 'job2', [use]);
    expect(objects.get(use.key)).toEqual({ expiring: true });
  });

  it('deletes the file with the last job when its fileRef can no longer start one', async () => {
    const { deps, objects } = world({ uploadUsable: false });
    await holdUploads(deps, 'a', 'job1', [use]);
    await releaseUploads(deps, 'a', 'job1', [use]);
    expect(objects.has(use.key)).toBe(false);
  });

  it('keeps the file held when a new job refers to it while the last old one is being deleted', async () => {
    let racing = false;
    const w = world({
      beforeRetag: async () => {
        // A job created after the last reference went but before the re-tag: its hold ran in full…
        if (racing) return;
        racing = true;
        await holdUploads(w.deps, 'a', 'job2', [use]);
      },
    });
    await holdUploads(w.deps, 'a', 'job1', [use]);
    await releaseUploads(w.deps, 'a', 'job1', [use]);
    // …the re-tag undid it, and the re-count after it saw the new job.
    expect(w.objects.get(use.key)).toEqual({ expiring: false });
    expect(w.refs.get('u1')).toEqual(new Set(['job2']));
  });
});
