/**
 * What the previews benches share for their per-file results and verdict
 * lines: our outcome for a file's page, and "met" / "NOT MET". (The summary
 * against poppler alone that was here went when bench:previews moved to the
 * consensus of several renderers, previews-consensus.ts.)
 */

export type OurStatus =
  /** Page 1 delivered as an image. */
  | 'rendered'
  /** The file was refused with a reason (UnprocessableFileError). */
  | 'refused'
  /** The file opened, but page 1 failed alone with a reason. */
  | 'page-failed'
  /** Anything else: an unexpected error, a timeout or a dead render process. */
  | 'error'
  | 'timeout'
  | 'crash';

/** "met" or "NOT MET" for a figure against its target; a figure that could not be measured is not met. */
export function verdict(met: boolean): string {
  return met ? 'met' : 'NOT MET';
}
