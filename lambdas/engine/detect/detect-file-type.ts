/**
 * File type from bytes, never from names or claimed MIME types (docs/api.md §5).
 * Own checks come first where the library is too strict or too loose for print
 * files: `%PDF-` anywhere in the first 1024 bytes is a PDF (as readers accept
 * it), `%!PS` is PostScript/EPS, and SVG is recognised by its root element.
 * Everything else goes through file-type, whose result is mapped onto the
 * contract's classes.
 */
import { fileTypeFromBuffer } from 'file-type';
import type { FileType } from '../../domain/model';
import { findPdfSignature } from '../core/file-header';
import { looksLikeSvg } from './svg-sniff';

export interface DetectedType {
  fileType: FileType;
  mimeType: string;
}

/** How many leading bytes callers should pass. */
export const DETECTION_HEAD_BYTES = 4100;

const RASTER = new Set(['jpg', 'png', 'tif', 'webp', 'gif']);
const OFFICE = new Set(['docx', 'xlsx', 'pptx', 'docm', 'xlsm', 'pptm', 'dotx', 'xltx', 'potx', 'odt', 'ods', 'odp', 'doc', 'xls', 'ppt', 'rtf']);
const ARCHIVE = new Set(['zip', 'gz', 'tar', '7z', 'rar', 'bz2', 'xz']);
const FONT = new Set(['ttf', 'otf', 'woff', 'woff2', 'ttc', 'eot']);
const VECTOR = new Set(['eps', 'ps']);

export async function detectFileType(head: Uint8Array): Promise<DetectedType> {
  if (findPdfSignature(head) >= 0) return { fileType: 'pdf', mimeType: 'application/pdf' };
  if (startsWith(head, '%!PS')) return { fileType: 'vector', mimeType: 'application/postscript' };

  let detected: { ext: string; mime: string } | undefined;
  try {
    detected = await fileTypeFromBuffer(head);
  } catch {
    // A head too short or too odd for the library's parsers: judge by our own checks.
    detected = undefined;
  }
  if (!detected || detected.ext === 'xml') {
    if (looksLikeSvg(head)) return { fileType: 'vector', mimeType: 'image/svg+xml' };
  }
  if (!detected) return OTHER;

  const { ext, mime } = detected;
  if (ext === 'pdf' || ext === 'ai') return { fileType: 'pdf', mimeType: 'application/pdf' };
  if (RASTER.has(ext)) return { fileType: 'raster', mimeType: mime };
  if (VECTOR.has(ext)) return { fileType: 'vector', mimeType: 'application/postscript' };
  if (ext === 'svg') return { fileType: 'vector', mimeType: 'image/svg+xml' };
  if (OFFICE.has(ext)) return { fileType: 'office', mimeType: mime };
  // Compound File Binary: the container of legacy .doc/.xls/.ppt.
  if (ext === 'cfb') return { fileType: 'office', mimeType: legacyOfficeMime(head) };
  if (ARCHIVE.has(ext)) return { fileType: 'archive', mimeType: mime };
  if (FONT.has(ext)) return { fileType: 'font', mimeType: mime };
  return OTHER;
}

const OTHER: DetectedType = { fileType: 'other', mimeType: 'application/octet-stream' };

function startsWith(head: Uint8Array, ascii: string): boolean {
  for (let i = 0; i < ascii.length; i++) if (head[i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** Names the application from the directory entry names (UTF-16LE) when they are in the head. */
function legacyOfficeMime(head: Uint8Array): string {
  const text = Buffer.from(head.buffer, head.byteOffset, head.byteLength).toString('utf16le');
  if (text.includes('WordDocument')) return 'application/msword';
  if (text.includes('Workbook') || text.includes('Book')) return 'application/vnd.ms-excel';
  if (text.includes('PowerPoint Document')) return 'application/vnd.ms-powerpoint';
  return 'application/x-cfb';
}
