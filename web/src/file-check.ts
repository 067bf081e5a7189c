/**
 * What the New job page checks about a file before it asks for an upload: its size (POST /uploads
 * takes 1 byte to 500 MB, docs/api.md §3) and its type, read from its first bytes as the service
 * reads it (docs/api.md §5: never from the name). Only PDFs and the raster images every operation
 * takes are worth uploading: anything else would only come back skipped, after the whole upload.
 * Free of DOM types, so the unit tests run it under Node.
 */
import { formatBytes } from './format';

/** POST /uploads' largest `sizeBytes` (lambdas/api/schemas/upload-body.ts; a test holds them equal). */
export const MAX_UPLOAD_BYTES = 524_288_000;

/** How many leading bytes `sniff` needs: a PDF's `%PDF-` may sit anywhere in the first 1024. */
export const HEAD_BYTES = 1024;

export interface SniffedType {
  fileType: 'pdf' | 'raster';
  /** The Content-Type the upload is announced with. */
  mimeType: string;
}

const startsWith = (head: Uint8Array, bytes: readonly number[], at = 0) => bytes.every((b, i) => head[at + i] === b);
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

/** Whether `bytes` occur in `head` starting within its first `within` bytes. */
function occursWithin(head: Uint8Array, bytes: readonly number[], within: number): boolean {
  for (let at = 0; at <= Math.min(within, head.length - bytes.length); at++) if (startsWith(head, bytes, at)) return true;
  return false;
}

/** `%PDF-` anywhere in the first 1024 bytes, as readers and the service's detector accept it. */
const PDF_SIGNATURE = ascii('%PDF-');

/** The raster images the service takes (docs/api.md §5), by their magic numbers. */
const RASTER_SIGNATURES: { mimeType: string; matches: (head: Uint8Array) => boolean }[] = [
  { mimeType: 'image/jpeg', matches: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { mimeType: 'image/png', matches: (h) => startsWith(h, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { mimeType: 'image/tiff', matches: (h) => startsWith(h, ascii('II*\0')) || startsWith(h, ascii('MM\0*')) },
  { mimeType: 'image/webp', matches: (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8) },
  { mimeType: 'image/gif', matches: (h) => startsWith(h, ascii('GIF87a')) || startsWith(h, ascii('GIF89a')) },
];

/** The file's type from its first bytes, or null when it is neither a PDF nor a supported image. */
export function sniff(head: Uint8Array): SniffedType | null {
  if (occursWithin(head, PDF_SIGNATURE, HEAD_BYTES)) return { fileType: 'pdf', mimeType: 'application/pdf' };
  const raster = RASTER_SIGNATURES.find((s) => s.matches(head));
  return raster ? { fileType: 'raster', mimeType: raster.mimeType } : null;
}

/** Why a file of this size cannot be uploaded, or null. Said to shop staff beside the file's name. */
export function sizeProblem(sizeBytes: number): string | null {
  if (sizeBytes === 0) return 'Refused: the file is empty (0 bytes).';
  if (sizeBytes > MAX_UPLOAD_BYTES) {
    return `Too large: the file is ${formatBytes(sizeBytes)}; files can be at most ${formatBytes(MAX_UPLOAD_BYTES)}.`;
  }
  return null;
}

export const REFUSED_TYPE =
  'Refused type: this is not a PDF or an image (JPEG, PNG, TIFF, WebP or GIF), so Proofline cannot check it.';

/** The file's size and first bytes judged: its type to announce, or the sentence that refuses it. */
export function checkFile(sizeBytes: number, head: Uint8Array): { ok: true; type: SniffedType } | { ok: false; problem: string } {
  const tooBig = sizeProblem(sizeBytes);
  if (tooBig) return { ok: false, problem: tooBig };
  const type = sniff(head);
  return type ? { ok: true, type } : { ok: false, problem: REFUSED_TYPE };
}
