/**
 * The agreement figures over a corpus, from each file's runs (corpus-file-run):
 * which files take part, every font and image comparison with its file, and
 * the tallies the bench prints.
 *
 * Which files count:
 * - poppler failed or timed out → excluded (nothing to compare against);
 * - we refused the file (error with a reason) or crashed while poppler read it
 *   → every poppler row of it counts as missing on our side: the customer got
 *   no report for a file poppler can read;
 * - our report lists fewer images than the file has (imagesTruncated) → the
 *   file's image rows are left out of the image figure, which would otherwise
 *   count the cap as disagreement.
 */
import { compareFonts, tallyFonts, type FontAgreement, type FontComparison } from './font-agreement';
import { compareImages, tallyImages, type ImageAgreement, type ImageComparison, type OurImage } from './image-agreement';
import type { FileRun } from './corpus-file-run';

export interface AgreementSummary {
  fonts: FontAgreement;
  images: ImageAgreement;
  fontRows: (FontComparison & { file: string })[];
  imageRows: (ImageComparison & { file: string })[];
  oursOnly: (OurImage & { file: string })[];
  compared: number;
  popplerFailed: FileRun[];
  /** Files poppler read and we did not: their rows count as missing. */
  refusedByUs: FileRun[];
  truncatedImageLists: string[];
  /** A report field the comparison needs and the report does not carry. */
  missingField: string | null;
}

export function summariseAgreement(runs: readonly FileRun[]): AgreementSummary {
  const s: AgreementSummary = {
    fonts: tallyFonts([]),
    images: tallyImages([]),
    fontRows: [],
    imageRows: [],
    oursOnly: [],
    compared: 0,
    popplerFailed: [],
    refusedByUs: [],
    truncatedImageLists: [],
    missingField: null,
  };
  for (const run of runs) {
    const { poppler, ours, file } = run;
    if (poppler.status === 'skipped') continue;
    if (poppler.status !== 'ok') {
      s.popplerFailed.push(run);
      continue;
    }
    s.compared++;
    let fonts: Parameters<typeof compareFonts>[1] = [];
    let images: OurImage[] = [];
    let truncated = false;
    if (ours.status === 'report') {
      if ('missing' in ours.facts) {
        s.missingField ??= ours.facts.missing;
        continue;
      }
      ({ fonts, images } = ours.facts);
      truncated = ours.facts.imagesTruncated;
    } else s.refusedByUs.push(run);

    for (const c of compareFonts(poppler.fonts, fonts)) s.fontRows.push({ ...c, file });
    if (truncated) {
      s.truncatedImageLists.push(file);
      continue;
    }
    const matching = compareImages(poppler.images, images);
    for (const c of matching.comparisons) s.imageRows.push({ ...c, file });
    for (const img of matching.oursOnly) s.oursOnly.push({ ...img, file });
  }
  s.fonts = tallyFonts(s.fontRows);
  s.images = tallyImages(s.imageRows);
  return s;
}
