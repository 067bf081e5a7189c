/**
 * Where files live in the bucket. Everything of a job sits under one prefix so
 * DELETE /jobs/{id} removes it with one prefix delete, and every key starts with
 * the account id so no code path can mix accounts' files.
 *
 *   <accountId>/uploads/<uploadId>                        presigned POST target
 *   <accountId>/jobs/<jobId>/<taskId>/source/original.<ext> the task's source file
 *   <accountId>/jobs/<jobId>/<taskId>/<stepId>/<name>     a step's outputs (deterministic
 *                                                         names, so a retried step overwrites
 *                                                         instead of duplicating)
 *
 * No key carries a name the customer chose: the name lives in the artifact
 * record (downloads are named from it). A key made of a customer's name once
 * took the local runtime down: 30 Japanese characters are 90 bytes of UTF-8,
 * and the storage stand-in, which keeps each key as a file path, failed with
 * ENAMETOOLONG (issue 16). Only a short alphanumeric extension is kept, so a
 * key still tells what the object is.
 */
export const uploadKey = (accountId: string, uploadId: string): string => `${accountId}/uploads/${uploadId}`;

export const jobPrefix = (accountId: string, jobId: string): string => `${accountId}/jobs/${jobId}/`;

export const sourceKey = (accountId: string, jobId: string, taskId: string, fileName: string): string =>
  `${jobPrefix(accountId, jobId)}${taskId}/source/original${keyExtension(fileName)}`;

export const stepOutputKey = (accountId: string, jobId: string, taskId: string, stepId: string, name: string): string =>
  `${jobPrefix(accountId, jobId)}${taskId}/${stepId}/${safeFileName(name)}`;

/** `.pdf` for `Visitenkarte Müller.PDF`: the name's extension when it is 1–5 letters or digits (lower case), else nothing. */
export function keyExtension(fileName: string): string {
  const m = /\.([a-z0-9]{1,5})$/i.exec(fileName);
  return m ? `.${m[1]!.toLowerCase()}` : '';
}

/**
 * A file name safe as one key segment: no slashes, no control characters, no
 * leading dots, at most 200 characters (S3 keys may be 1024 bytes long; the rest
 * of the key needs room). The original name is kept for downloads separately.
 */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f/\\]/g, '_')
    .replace(/^\.+/, '_')
    .trim()
    .slice(0, 200);
  return cleaned === '' ? 'file' : cleaned;
}

/**
 * The object tag that marks a presigned-POST upload. Upload keys share no
 * prefix (each starts with its account id), so the bucket's lifecycle rule
 * expires uploads by this tag instead (lib/constructs/storage.ts). presignPost
 * sends it (a `tagging` field plus the matching policy condition); while a job
 * refers to the upload's file the tag is off (use-cases/upload-references.ts).
 */
export const UPLOAD_OBJECT_TAG = { key: 'proofline-object', value: 'upload' } as const;
