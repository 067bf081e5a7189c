/**
 * The Content-Disposition a presigned download URL asks S3 to answer with, so
 * a browser saves the file under its original name. RFC 6266: an ASCII
 * `filename` fallback for old clients and the exact name in `filename*`
 * (RFC 5987 percent-encoded UTF-8).
 *
 * The name is the customer's: only its last path segment is offered (a name
 * `../../../etc/passwd` must not suggest a path to save to), without control
 * characters and without the bidirectional controls that make `invoice‮fdp.exe`
 * display as `invoiceexe.pdf` (RFC 6266 §4.3 asks recipients to do the same;
 * we do not rely on them).
 */
import { LONE_SURROGATE } from '../../domain/file-names';

const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function attachmentDisposition(fileName: string): string {
  const lastSegment = fileName.split(/[\\/]/).filter((s) => s.trim() !== '' && s !== '.' && s !== '..').pop() ?? '';
  const clean =
    lastSegment
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
      .replace(BIDI_CONTROLS, '')
      // A lone surrogate would make encodeURIComponent throw.
      .replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd')
      .trim() || 'download';
  // Accents drop to their base letter (é → e); anything else non-ASCII, and
  // the quote and backslash that would end or escape the quoted string, become _.
  const fallback =
    clean
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\x20-\x7e]|["\\]/g, '_')
      .trim() || 'download';
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(clean)}`;
}

function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}
