/**
 * The same file as a source for a new job (docs/api.md §3), for the page images and "Fix it"
 * jobs the job page starts:
 * - a task made from an upload names its `fileRef`: jobs made from it read the uploaded file
 *   itself, nothing is copied (and the request is the same every time, so it can carry an
 *   Idempotency-Key);
 * - a task made from a URL names that URL again (the service fetches it as before; a URL that
 *   needed headers the console does not know fails with the service's reason);
 * - a task sent inline (base64 `file`) has no locator left to name: the console downloads the
 *   stored original and uploads it (POST /uploads and the form POST) to get a `fileRef`.
 *   A presigned download URL cannot be sent as `url` instead: it would be stored as the new task's
 *   `source`, a credential in the job's record, and the local runtime refuses its own ports.
 */
import { api, ApiFailure } from '../api';
import type { TaskDetail } from './job-detail';

export type Locator = { fileRef: string } | { url: string };

export interface SourceOfTask {
  locator: Locator;
  /** True when the same request names the same file again: it may carry an Idempotency-Key. */
  stable: boolean;
}

export async function sourceOfTask(task: TaskDetail): Promise<SourceOfTask> {
  if (task.fileRef) return { locator: { fileRef: task.fileRef }, stable: true };
  if (/^https?:\/\//i.test(task.source)) return { locator: { url: task.source }, stable: true };
  const original = task.originalArtifact;
  if (!original?.downloadUrl) throw new ApiFailure(0, 'no_file', 'The original file is not stored, so no new job can be made from it.');
  return { locator: { fileRef: await copyToUpload(original.downloadUrl, original.mimeType, original.fileName) }, stable: false };
}

interface UploadAnswer {
  fileRef: string;
  upload: { url: string; fields: Record<string, string> };
}

async function copyToUpload(downloadUrl: string, mimeType: string, fileName: string): Promise<string> {
  let file: Blob;
  try {
    const res = await fetch(downloadUrl);
    if (!res.ok) throw new Error(String(res.status));
    file = await res.blob();
  } catch {
    throw new ApiFailure(0, 'network', 'The original file could not be read from storage to start a new job from it.');
  }
  const answer = await api<UploadAnswer>('POST', '/uploads', { sizeBytes: file.size, mimeType });
  const form = new FormData();
  for (const [k, v] of Object.entries(answer.upload.fields)) form.append(k, v);
  form.append('file', file, fileName);
  let sent: Response;
  try {
    sent = await fetch(answer.upload.url, { method: 'POST', body: form });
  } catch {
    throw new ApiFailure(0, 'network', 'The copy of the original file could not be uploaded.');
  }
  if (!sent.ok) throw new ApiFailure(sent.status, 'upload_failed', `Storage refused the copy of the original file (${sent.status}).`);
  return answer.fileRef;
}
