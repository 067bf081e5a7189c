/**
 * How a fixed document reaches the disk: as an incremental update appended to
 * the original when the fixes changed a few objects and nothing they took out
 * must leave the file, else written whole, object by object. Either way the
 * original's bytes are never held in memory (the update copies the file; the
 * whole writer reads each stream as it writes it).
 *
 * Written whole when:
 * - a fix applied says so in the catalogue (`output: 'whole-file'`: removals
 *   and standards' preparation);
 * - the file was encrypted (it is written decrypted), or could only be read by
 *   repairing its structure (an update would point at the damaged one), or
 *   has no usable `startxref`;
 * - its header version changed (a header is not part of an update);
 * - a fix left objects unreferenced that were referenced before: in an update
 *   they would stay in the original revision;
 * - a replaced stream was large (over REPLACED_STREAM_BYTES): its old bytes
 *   would stay in the file as dead weight.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { PDFName, PDFNumber, PDFStream } from '@cantoo/pdf-lib';
import type { ChangeTracker } from '../core/writer/change-tracker';
import { appendIncrementalUpdate } from '../core/writer/incremental-writer';
import { readOriginalRevision } from '../core/writer/original-revision';
import { writeWholePdf } from '../core/writer/whole-file-writer';
import { dropUnreferencedObjects, unreferencedRefs } from './unreferenced';

/** Above this, a stream a fix replaced makes the file be written whole. */
const REPLACED_STREAM_BYTES = 256 * 1024;

export interface SaveInput {
  doc: PDFDocument;
  originalPath: string;
  outPath: string;
  tracker: ChangeTracker;
  /**
   * References nothing reached before the fixes ran; null when they were not
   * looked for because the file is written whole anyway (autofix/index.ts).
   */
  unreferencedBefore: ReadonlySet<unknown> | null;
  /** The header version as opened. */
  versionBefore: string;
  /** Written whole whatever changed: a fix asks for it, or the file was encrypted or repaired when read. */
  wholeFile: boolean;
}

export type SaveMode = 'incremental' | 'whole';

export async function saveFixed(input: SaveInput): Promise<SaveMode> {
  const { doc } = input;
  const incremental = await incrementalPlan(input);
  if (incremental) {
    await appendIncrementalUpdate(doc, incremental.original, incremental.changes, input.outPath);
    return 'incremental';
  }
  // What the fixes took out must leave the file, not linger as unreferenced objects.
  dropUnreferencedObjects(doc);
  await writeWholePdf(doc, input.outPath);
  return 'whole';
}

async function incrementalPlan(input: SaveInput) {
  const { doc } = input;
  if (input.wholeFile || input.unreferencedBefore === null) return null;
  const unreferencedBefore = input.unreferencedBefore;
  if (doc.context.header.getVersionString() !== input.versionBefore) return null;
  const size = doc.context.trailerInfo.Size;
  const original = await readOriginalRevision(input.originalPath, size instanceof PDFNumber ? size.asNumber() : doc.context.largestObjectNumber + 1);
  if (!original) return null;
  if (unreferencedRefs(doc).some((ref) => !unreferencedBefore.has(ref))) return null;
  const changes = input.tracker.changes();
  let replaced = 0;
  for (const [ref] of changes.written) {
    const before = input.tracker.original(ref);
    if (before instanceof PDFStream) replaced += streamLength(doc, before);
  }
  if (replaced > REPLACED_STREAM_BYTES) return null;
  return { original, changes };
}

function streamLength(doc: PDFDocument, stream: PDFStream): number {
  const length = doc.context.lookup(stream.dict.get(PDFName.of('Length')));
  return length instanceof PDFNumber ? length.asNumber() : 0;
}
