/**
 * A child process of `npm run bench:autofix` (support/bench-child.ts runs it
 * under a time limit). Two jobs:
 *
 * - `fix`: preflight the file (default profile), apply the fixes its report
 *   recommends, preflight the result; plus what "never damage" needs from our
 *   side: the text of the first pages before and after, and, when every
 *   applied fix is one that must not change appearance (or changes only the
 *   bleed: printsSameInsideTrim), how the first pages
 *   print inside the TrimBox before and after (annotations that never print
 *   left out: see printedView). When layers.flatten ran beside a fix that may
 *   change appearance and text went, the same for layers.flatten alone (see
 *   layersFlattenedOnly).
 * - `pdfa`: validate the file against its profile, apply pdfa.prepare for
 *   that part and level, validate again.
 */
import '../../../lambdas/platform/polyfills';
import { rm, writeFile } from 'node:fs/promises';
import { autofix } from '../../../lambdas/engine/autofix';
import { removeFromPage } from '../../../lambdas/engine/autofix/interactive/annotation-removal';
import { pageAnnotations, printState } from '../../../lambdas/engine/autofix/interactive/appearance-placement';
import { findFix, paramProblem } from '../../../lambdas/engine/profile-catalogue';
import { openPdfFile } from '../../../lambdas/engine/core/load-pdf';
import { contains, readPageBoxes, sameRect, setBox, type Rect } from '../../../lambdas/engine/core/page-boxes';
import { preflight } from '../../../lambdas/engine/preflight';
import { validate } from '../../../lambdas/engine/validate';
import type { ValidateProfileCode } from '../../../step-definitions/catalogue';
import { compareTrimImages, trimImages, type PageDifference } from '../../support/appearance-compare';
import { extractText, visibleChars } from '../../support/text-extract';

/** What the bench asks for; the child gets it with an `id`. */
export type AutofixJob = { kind: 'fix'; path: string; outPath: string; maxRounds?: number } | { kind: 'pdfa'; path: string; outPath: string; profile: ValidateProfileCode };
type AutofixRequest = AutofixJob & { id: number };

export interface FindingCount {
  checkId: string;
  fixId: string | null;
  count: number;
}

export type AutofixAnswer =
  | {
      id: number;
      ok: true;
      kind: 'fix';
      /** Findings before, per check, with the fix that resolves them (null: none available). */
      before: FindingCount[];
      recommended: string[];
      applied: { fixId: string; count: number }[];
      skipped: { fixId: string; reason: string }[];
      /** Rounds autofix made (it checks its result again and applies what is newly recommended). */
      rounds: number;
      changed: boolean;
      /** Check ids still reported after the fixes (null when nothing changed: not preflighted again). */
      after: FindingCount[] | null;
      /** Visible characters of the first pages; after -1: the fixed file's text could not be read. Null: the original's could not. */
      text: { before: number; after: number } | null;
      /** Null when some applied fix may change appearance (or nothing changed). */
      appearance: PageDifference[] | null;
      /**
       * The original with layers.flatten alone: its text and how it prints against the original. Measured only
       * when layers.flatten ran beside a fix that may change appearance and the text shrank (else null).
       */
      layersOnly: { text: number; appearance: PageDifference[] | null } | null;
      ms: number;
    }
  | {
      id: number;
      ok: true;
      kind: 'pdfa';
      /** Failing rule ids before and after (after: null when pdfa.prepare does not exist or changed nothing). */
      before: string[];
      after: string[] | null;
      compliantAfter: boolean | null;
      skipped: string | null;
      ms: number;
    }
  | { id: number; ok: false; name: string; message: string; ms: number };

// Real-world files make pdfjs warn a lot; the bench counts outcomes, not warnings.
console.warn = () => {};
console.log = () => {};

// A finding is fixable when preflight marks its fix available (what recommendedFixes goes by); its fixId alone is
// the check's usual fix even where no case of it can be fixed (issue6081: an ArtBox beyond the bleed area).
const counts = (findings: { checkId: string; fix: { available: boolean; fixId: string | null }; count: number }[]): FindingCount[] =>
  findings.map((f) => ({ checkId: f.checkId, fixId: f.fix.available ? f.fix.fixId : null, count: f.count }));

/**
 * Null when the original cannot be rendered; a fixed file that cannot be, where the original could, differs everywhere.
 * What is compared is what prints: see printedView.
 */
async function appearanceOf(original: string, fixed: string): Promise<PageDifference[] | null> {
  const copies: string[] = [];
  try {
    // The original is viewed on the fixed file's MediaBoxes: where a fix grew the page around its TrimBox, every renderer
    // (ours, poppler, mupdf) places the seams of a tiling pattern a pixel apart on the larger page, though not one mark
    // inside the TrimBox moved (realworld/pdfjs/colorkeymask.pdf after bleed.mirror; growing the MediaBox alone does it).
    const before = await printedView(original, `${fixed}.before-print.pdf`, copies, await mediaBoxesOf(fixed).catch(() => null))
      .then((p) => trimImages(p))
      .catch(() => null);
    if (!before) return null;
    const after = await printedView(fixed, `${fixed}.after-print.pdf`, copies)
      .then((p) => trimImages(p))
      .catch(() => null);
    return after ? compareTrimImages(before, after) : before.map((b) => ({ page: b.page, rmse: 1, changedShare: 1, sizeChanged: true }));
  } finally {
    for (const c of copies) await rm(c, { force: true });
  }
}

/**
 * The file as it prints: the previews engine renders the screen view, which also shows annotations that never
 * print (Print flag clear, Hidden, or Invisible of a type the reader does not know). A copy without them is written to `copyPath` when there are any (else the
 * file itself is returned), so that taking out such an annotation is not judged a change to the printed page.
 * conformance/verapdf/PDF_A-4f/6.3 Annotations/6.3.2 …/6-3-2-t01-fail-a.pdf has a FileAttachment annotation without
 * /F (no flag set: it never prints, and preflight's annotations.in-trim rightly ignores it) whose paperclip icon
 * went with attachments.remove. With `mediaBoxes`, the copy also takes those MediaBoxes (see appearanceOf).
 */
async function printedView(file: string, copyPath: string, copies: string[], mediaBoxes: Rect[] | null = null): Promise<string> {
  const { doc } = await openPdfFile(file);
  let changed = 0;
  doc.getPages().forEach((page, i) => {
    // Judged as the fixes judge it (appearance-placement.ts): no Print flag, Hidden, or Invisible of an unknown type.
    const notPrinting = new Set(pageAnnotations(doc.context, page.node).filter((a) => printState(a) === 'never'));
    if (notPrinting.size > 0) changed += removeFromPage(doc.context, page.node, notPrinting);
    const media = mediaBoxes?.[i];
    const boxes = readPageBoxes(doc.context, page.node);
    // Only a page grown around its old MediaBox: any other change of geometry is the fix's to answer for.
    if (media && !sameRect(media, boxes.media) && contains(media, boxes.media)) {
      // The finished area stays what it was: stated, so that it does not follow the new MediaBox.
      setBox(doc.context, page.node, 'TrimBox', boxes.trim);
      setBox(doc.context, page.node, 'MediaBox', media);
      changed++;
    }
  });
  if (changed === 0) return file;
  copies.push(copyPath);
  await writeFile(copyPath, await doc.save({ useObjectStreams: false, updateFieldAppearances: false }));
  return copyPath;
}

/** Each page's MediaBox as the file states it (inherited or its own). */
async function mediaBoxesOf(file: string): Promise<Rect[]> {
  const { doc, source } = await openPdfFile(file);
  try {
    return doc.getPages().map((p) => readPageBoxes(doc.context, p.node).media);
  } finally {
    source.close();
  }
}

async function fixJob(req: Extract<AutofixRequest, { kind: 'fix' }>): Promise<Omit<Extract<AutofixAnswer, { kind: 'fix' }>, 'id' | 'ms'>> {
  const first = await preflight({ path: req.path, fileType: 'pdf', profileId: 'default', context: null });
  const recommended = first.report.recommendedFixes;
  const base = { ok: true as const, kind: 'fix' as const, before: counts(first.report.findings), recommended };
  if (recommended.length === 0) return { ...base, applied: [], skipped: [], rounds: 0, changed: false, after: null, text: null, appearance: null, layersOnly: null };
  const fixed = await autofix({ path: req.path, outPath: req.outPath, items: null, recommended, profileId: 'default', context: null, maxRounds: req.maxRounds });
  const applied = fixed.applied.map((a) => ({ fixId: a.fixId, count: a.count }));
  if (!fixed.changed) return { ...base, applied, skipped: fixed.skipped, rounds: fixed.rounds.length, changed: false, after: null, text: null, appearance: null, layersOnly: null };
  const again = await preflight({ path: req.outPath, fileType: 'pdf', profileId: 'default', context: null });
  // What pdfjs cannot read in the original (a circular page tree, say) cannot be compared; in the fixed file only, it is damage (-1).
  const textOf = (p: string) => extractText(p).then(visibleChars, () => null);
  const textBefore = await textOf(req.path);
  const text = textBefore === null ? null : { before: textBefore, after: (await textOf(req.outPath)) ?? -1 };
  // Fixes that change only the bleed (bleed.mirror) must leave the finished area as it was, like those that change nothing visible.
  const unchangedLook = fixed.applied.every((a) => findFix(a.fixId)?.appearance === 'none' || findFix(a.fixId)?.printsSameInsideTrim === true);
  const appearance = unchangedLook ? await appearanceOf(req.path, req.outPath) : null;
  const layersOnly = !unchangedLook && text && text.after < text.before && applied.some((a) => a.fixId === 'layers.flatten') ? await layersFlattenedOnly(req) : null;
  return { ...base, applied, skipped: fixed.skipped, rounds: fixed.rounds.length, changed: true, after: counts(again.report.findings), text, appearance, layersOnly };
}

/**
 * layers.flatten removes hidden layers' text by design (pdfjs extracts it all the same). Beside a fix that may
 * change appearance (bleed.mirror in realworld/pdfjs/issue11144_reduced.pdf, whose only text is in the "Notes!"
 * layer, off in the default configuration) the result cannot be compared with the original, so layers.flatten
 * runs alone on the original as well: what it removes while printing the same is the text that was never visible.
 */
async function layersFlattenedOnly(req: Extract<AutofixRequest, { kind: 'fix' }>): Promise<{ text: number; appearance: PageDifference[] | null } | null> {
  const outPath = `${req.outPath}.layers.pdf`;
  try {
    const alone = await autofix({ path: req.path, outPath, items: ['layers.flatten'], recommended: null, profileId: 'default', context: null });
    if (!alone.changed) return null;
    const text = await extractText(outPath).then(visibleChars, () => -1);
    return { text, appearance: await appearanceOf(req.path, outPath) };
  } finally {
    await rm(outPath, { force: true });
  }
}

async function pdfaJob(req: Extract<AutofixRequest, { kind: 'pdfa' }>): Promise<Omit<Extract<AutofixAnswer, { kind: 'pdfa' }>, 'id' | 'ms'>> {
  const failing = (r: Awaited<ReturnType<typeof validate>>) => [...new Set(r.profiles.flatMap((p) => p.failures.map((f) => f.ruleId)))];
  const info = findFix('pdfa.prepare');
  if (!info) return { ok: true, kind: 'pdfa', before: [], after: null, compliantAfter: null, skipped: 'pdfa.prepare is not in the fix catalogue yet' };
  // Only the parts and levels the fix claims: preparing a 1a file as 1b would be a different question.
  const m = /^([1-4])([abeuf]?)$/.exec(req.profile);
  const params = { part: Number(m?.[1]), conformance: m?.[2] ?? '' };
  const unsupported = info.params.map((p) => paramProblem(p, params[p.name as keyof typeof params])).find((problem) => problem !== null);
  if (!m || unsupported) return { ok: true, kind: 'pdfa', before: [], after: null, compliantAfter: null, skipped: `pdfa.prepare does not prepare PDF/A-${req.profile} (${unsupported ?? 'not a PDF/A profile'})` };
  const before = failing(await validate({ path: req.path, profiles: [req.profile] }));
  const base = { ok: true as const, kind: 'pdfa' as const, before };
  const fixParams = { 'pdfa.prepare': params };
  const fixed = await autofix({ path: req.path, outPath: req.outPath, items: ['pdfa.prepare'], recommended: null, profileId: 'default', context: null, fixParams });
  if (!fixed.changed) return { ...base, after: before, compliantAfter: before.length === 0, skipped: fixed.skipped.map((s) => s.reason).join('; ') || null };
  const again = await validate({ path: req.outPath, profiles: [req.profile] });
  return { ...base, after: failing(again), compliantAfter: again.compliant, skipped: null };
}

process.on('message', (req: AutofixRequest) => {
  const t0 = performance.now();
  const job = req.kind === 'fix' ? fixJob(req) : pdfaJob(req);
  job.then(
    (answer) => process.send?.({ ...answer, id: req.id, ms: performance.now() - t0 } as AutofixAnswer),
    (err: unknown) => {
      const e = err as { name?: string; message?: string };
      process.send?.({ id: req.id, ok: false, name: e?.name ?? 'Error', message: String(e?.message ?? err).split('\n')[0]!, ms: performance.now() - t0 } satisfies AutofixAnswer);
    },
  );
});

process.send?.({ ready: true });
