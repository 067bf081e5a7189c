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
import { NETWORK_ERROR, storageRefusal } from './upload-errors';

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
      request.onerror = () => reject(new Error(NETWORK_ERROR));
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
