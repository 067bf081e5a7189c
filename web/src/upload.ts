/**
 * One file's way into storage (docs/api.md §3, Uploads): POST /uploads announces it and returns a
 * presigned form, then the file goes to storage itself in a multipart POST (every field first, the
 * file last in part `file`), so files of any size up to 500 MB bypass the API's body limit.
 *
 * The form is sent with XMLHttpRequest rather than fetch: only XHR reports upload progress, which
 * the page shows per file. Storage is another origin (locally another port, in the cloud the
 * bucket); it answers CORS for the console (local/storage-cors.ts, lib/constructs/storage.ts).
 */
import { api } from './api';
import type { SniffedType } from './file-check';

interface CreatedUpload {
  fileRef: string;
  upload: { url: string; fields: Record<string, string>; method: 'POST' };
}

export interface UploadHandle {
  /** The upload's fileRef once storage has the whole file; rejects with the sentence to show. */
  done: Promise<string>;
  /** Stops sending (the file was removed from the page); `done` then rejects with UploadAborted. */
  abort(): void;
}

export class UploadAborted extends Error {}

const NETWORK =
  'Network error: the upload was interrupted before storage confirmed it. Check your connection and retry.';

/** S3's refusal (an XML <Error>) as a sentence: its message, and its code for support. */
function storageRefusal(status: number, body: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  if (code === 'EntityTooLarge') return 'Too large: storage refused the file, it is larger than the upload allows.';
  if (code === 'AccessDenied' && /expired/i.test(message ?? '')) return 'The upload form expired before the file was sent. Retry.';
  return `Storage refused the file (${code ?? `HTTP ${status}`})${message ? `: ${message}` : '.'}`;
}

export function uploadFile(file: File, type: SniffedType, onProgress: (percent: number) => void): UploadHandle {
  let xhr: XMLHttpRequest | null = null;
  let aborted = false;
  const done = (async () => {
    const created = await api<CreatedUpload>('POST', '/uploads', { mimeType: type.mimeType, sizeBytes: file.size });
    if (aborted) throw new UploadAborted();
    const form = new FormData();
    for (const [name, value] of Object.entries(created.upload.fields)) form.append(name, value);
    form.append('file', file, file.name);
    await new Promise<void>((resolve, reject) => {
      const request = new XMLHttpRequest();
      xhr = request;
      request.open('POST', created.upload.url);
      // The multipart body is a little larger than the file: count its bytes, not the file's.
      request.upload.onprogress = (e) => {
        if (e.lengthComputable && e.total > 0) onProgress(Math.min(99, Math.floor((e.loaded / e.total) * 100)));
      };
      request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new Error(storageRefusal(request.status, request.responseText))));
      request.onerror = () => reject(new Error(NETWORK));
      request.onabort = () => reject(new UploadAborted());
      request.send(form);
    });
    // 100 % only once storage has answered that it holds the whole file.
    onProgress(100);
    return created.fileRef;
  })();
  return {
    done,
    abort() {
      aborted = true;
      xhr?.abort();
    },
  };
}
