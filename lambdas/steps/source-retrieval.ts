/**
 * Puts a task's source file at its place in the job's storage and reports what it
 * is. The three locators (docs/api.md §3: `file`, `fileRef`, `url`) arrive differently
 * but end alike: one object (under the task's prefix for `url`, where the API
 * already wrote it for `file`, the upload's own for `fileRef`), its size, its download name, and its type detected from its
 * first bytes, never from its name or claimed MIME type (docs/api.md §5).
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileType, JobRecord, TaskRecord } from '../domain/model';
import { UnprocessableFileError } from '../domain/errors';
import { sourceKey } from '../domain/blob-keys';
import { iso } from '../domain/ids';
import type { Services } from '../domain/ports';
import { detectFileType } from '../engine/detect/detect-file-type';
import { downloadSource, formatBytes } from './source-download';
import { fileNameFromUrl, withExtension } from '../domain/file-names';

/** How many leading bytes type detection looks at. */
export const DETECTION_HEAD_BYTES = 4100;

export interface RetrievedSource {
  key: string;
  /** Set for a shared upload: the version this task reads (see StoredArtifact.etag). */
  etag?: string;
  sizeBytes: number;
  fileName: string;
  fileType: FileType;
  mimeType: string;
  audit: { at: string; event: 'source.received' | 'source.fetched'; message: string };
}

export async function retrieveSource(s: Services, job: JobRecord, task: TaskRecord, workDir: string): Promise<RetrievedSource> {
  const locator = task.locator;
  switch (locator.kind) {
    case 'inline':
      return retrieveStored(s, task, locator.key, null);
    case 'upload':
      return retrieveStored(s, task, locator.key, { uploadId: locator.uploadId, etag: locator.etag ?? null });
    case 'url':
      return retrieveUrl(s, job, task, locator.url, locator.headers, workDir);
    default:
      throw new UnprocessableFileError('The task names no source file.');
  }
}

/** What a task says when the upload it was made from holds another file now. */
export function replacedUpload(uploadId: string): UnprocessableFileError {
  return new UnprocessableFileError(`The file of upload ${uploadId} was replaced after this job was created; create a new job to check the new file.`);
}

function checkSize(sizeBytes: number, max: number): void {
  if (sizeBytes === 0) throw new UnprocessableFileError('The source file is empty (0 bytes).');
  if (sizeBytes > max) throw new UnprocessableFileError(`The source is larger than ${formatBytes(max)}.`);
}

/**
 * A base64 `file` (already at its key) or a `fileRef` upload, read where it is:
 * every job made from the upload shares its object, which the job's reference
 * keeps from expiring (domain/use-cases/upload-references.ts). Type detection
 * reads the first bytes.
 */
async function retrieveStored(
  s: Services,
  task: TaskRecord,
  key: string,
  upload: { uploadId: string; etag: string | null } | null,
): Promise<RetrievedSource> {
  const head = await s.blobs.head(key);
  if (!head) {
    throw new UnprocessableFileError(
      upload ? `The upload ${upload.uploadId} has no file in storage (it may have expired).` : 'The source file is no longer in storage.',
    );
  }
  // Posted again (its presigned POST is good for an hour): this job was made from the earlier file.
  if (upload?.etag && head.etag && head.etag !== upload.etag) throw replacedUpload(upload.uploadId);
  checkSize(head.sizeBytes, s.config.maxSourceBytes);
  const { fileType, mimeType } = await detectFileType(await s.blobs.readRange(key, 0, DETECTION_HEAD_BYTES - 1));
  const receivedAt = iso(s.clock.now());

  if (!upload) {
    const fileName = withExtension(task.name ?? key.split('/').pop() ?? 'file', mimeType);
    const message = `Received ${fileName} (${formatBytes(head.sizeBytes)}).`;
    return { key, sizeBytes: head.sizeBytes, fileName, fileType, mimeType, audit: { at: receivedAt, event: 'source.received', message } };
  }
  const fileName = withExtension(task.name ?? 'source', mimeType);
  const message = `Received ${fileName} from upload ${upload.uploadId} (${formatBytes(head.sizeBytes)}).`;
  const etag = upload.etag ?? head.etag;
  return { key, ...(etag ? { etag } : {}), sizeBytes: head.sizeBytes, fileName, fileType, mimeType, audit: { at: receivedAt, event: 'source.received', message } };
}

/** Streams the URL to /tmp (decompressed, capped), detects its type there, then stores it. */
async function retrieveUrl(
  s: Services,
  job: JobRecord,
  task: TaskRecord,
  url: string,
  headers: Record<string, string> | undefined,
  workDir: string,
): Promise<RetrievedSource> {
  const path = join(workDir, 'source');
  const download = await downloadSource(url, {
    headers,
    destPath: path,
    maxBytes: s.config.maxSourceBytes,
    timeoutMs: s.config.sourceFetchTimeoutMs,
    mode: s.config.networkMode,
    reservedPorts: s.config.reservedPorts,
  });
  checkSize(download.sizeBytes, s.config.maxSourceBytes);
  const fetchedAt = iso(s.clock.now());
  const { fileType, mimeType } = await detectFileType(await readHead(path));
  const fileName = withExtension(task.name ?? fileNameFromUrl(url) ?? fileNameFromUrl(download.finalUrl) ?? 'source', mimeType);
  const key = sourceKey(job.accountId, job.id, task.id, fileName);
  await s.blobs.putFile(key, path, mimeType);

  const redirect = download.finalUrl !== url ? `, redirected to ${withoutQuery(download.finalUrl)}` : '';
  const message = `Fetched ${withoutQuery(url)} (${formatBytes(download.sizeBytes)}, HTTP ${download.statusCode}${redirect}).`;
  return { key, sizeBytes: download.sizeBytes, fileName, fileType, mimeType, audit: { at: fetchedAt, event: 'source.fetched', message } };
}

async function readHead(path: string): Promise<Uint8Array> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(DETECTION_HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, DETECTION_HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** Signed URLs carry credentials in their query; the audit log shows where, not how. */
function withoutQuery(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url.split(/[?#]/)[0] ?? url;
  }
}
