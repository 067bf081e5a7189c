/**
 * An upload's file is shared, not copied: every job made from a `fileRef` reads the upload's
 * own object (ten jobs on one 480 MB upload used to store 4.8 GB; issue 16). So the file must
 * live exactly as long as something may still use it:
 *
 * - While a job refers to it, the bucket's lifecycle rule must not expire it: holding removes the
 *   upload tag (blob-keys.ts UPLOAD_OBJECT_TAG) that rule matches.
 * - When the last referring job is deleted, the file goes back to the upload's own schedule: tagged
 *   again while its fileRef may still be used for new jobs, deleted at once when it may not
 *   (nothing can reach it any more, and a customer who deleted their jobs expects it gone).
 *
 * Deleting a job never deletes a file another job still uses. A job created while the last other
 * one is being deleted is safe too: after re-tagging, the count is read again, and the hold
 * (reference first, then untag) always ends after the other side's re-tag or is seen by its read.
 */
import type { BlobStore, UploadStore } from '../ports';

export interface UploadReferenceDeps {
  uploads: UploadStore;
  blobs: BlobStore;
}

export interface UploadUse {
  uploadId: string;
  key: string;
}

/** The distinct uploads among a job's tasks' sources. */
export function uploadsUsed(locators: readonly { kind: string; uploadId?: string; key?: string }[]): UploadUse[] {
  const seen = new Map<string, UploadUse>();
  for (const l of locators) {
    if (l.kind === 'upload' && l.uploadId && l.key && !seen.has(l.uploadId)) seen.set(l.uploadId, { uploadId: l.uploadId, key: l.key });
  }
  return [...seen.values()];
}

/** Refers the job to each upload and takes the file off the expiry schedule. */
export async function holdUploads(deps: UploadReferenceDeps, accountId: string, jobId: string, uses: readonly UploadUse[]): Promise<void> {
  for (const use of uses) {
    await deps.uploads.addReference(accountId, use.uploadId, jobId);
    await deps.blobs.setUploadExpiry(use.key, false);
  }
}

/** Forgets the job's references; a file no job refers to any more returns to its upload's schedule. */
export async function releaseUploads(deps: UploadReferenceDeps, accountId: string, jobId: string, uses: readonly UploadUse[]): Promise<void> {
  for (const use of uses) {
    const left = await deps.uploads.removeReference(accountId, use.uploadId, jobId);
    if (left > 0) continue;
    if (!(await deps.uploads.getUpload(accountId, use.uploadId))) {
      // Its fileRef can no longer start a job, and no job reads it.
      await deps.blobs.delete(use.key);
      continue;
    }
    await deps.blobs.setUploadExpiry(use.key, true);
    if ((await deps.uploads.referenceCount(accountId, use.uploadId)) > 0) await deps.blobs.setUploadExpiry(use.key, false);
  }
}
