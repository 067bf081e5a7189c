/**
 * One round of autofix: open the file, apply the given fixes in order, and
 * write the result to `outPath` when anything changed. The input file is never
 * modified; the output is re-opened before it is reported, so a fix can never
 * hand on a file that does not load. autofix/index.ts runs rounds until the
 * file is right (or stops trying).
 */
import type { OrderContext } from '../../domain/model';
import { findFix, fixParams, givenParams } from '../profile-catalogue';
import { openPdfFile, type OpenedPdf } from '../core/load-pdf';
import { trackChanges } from '../core/writer/track-changes';
import type { PreflightSettings } from '../preflight/settings';
import { FIX_IMPLEMENTATIONS } from './registry';
import { saveFixed, type SaveMode } from './save-fixed';
import { unreferencedRefs } from './unreferenced';

export interface RoundInput {
  path: string;
  outPath: string;
  /** The fix ids to run, already in the order of application. */
  fixes: readonly string[];
  context: OrderContext | null;
  /** Parameters per fix id; defaults fill the rest. */
  fixParams?: Record<string, unknown> | null;
  /** The profile's settings with the context applied: what the checks the fixes resolve judge by. */
  settings: PreflightSettings;
}

export interface AppliedFix {
  fixId: string;
  count: number;
  pages: number[];
}

export interface SkippedFix {
  fixId: string;
  reason: string;
}

export interface RoundResult {
  changed: boolean;
  applied: AppliedFix[];
  skipped: SkippedFix[];
  /** The parameters each fix with parameters ran with. */
  paramsApplied: Record<string, Record<string, number | boolean | string>>;
  /** How the file was written; null when nothing changed. */
  savedAs: SaveMode | null;
  /** The input was encrypted with an owner password only: a changed file is written decrypted. */
  encrypted: boolean;
}

export async function runFixRound(input: RoundInput): Promise<RoundResult> {
  const pdf = await openPdfFile(input.path);
  try {
    return await fixAndSave(pdf, input);
  } finally {
    pdf.source.close();
  }
}

async function fixAndSave(pdf: OpenedPdf, input: RoundInput): Promise<RoundResult> {
  const paramsApplied: RoundResult['paramsApplied'] = {};
  const tracker = trackChanges(pdf.doc.context);
  const unreferencedBefore = incrementalPossible(pdf, input.fixes) ? new Set(unreferencedRefs(pdf.doc)) : null;
  const versionBefore = pdf.doc.context.header.getVersionString();
  let wholeFileFix = false;
  const applied: AppliedFix[] = [];
  const skipped: SkippedFix[] = [];
  for (const fixId of input.fixes) {
    const fix = FIX_IMPLEMENTATIONS[fixId];
    const info = findFix(fixId);
    if (!fix || !info) {
      skipped.push({ fixId, reason: `There is no fix "${fixId}"; GET /profiles lists the available fixes.` });
      continue;
    }
    const params = fixParams(info, input.fixParams?.[fixId]);
    if (info.params.length > 0) paramsApplied[fixId] = params;
    const outcome = await fix(pdf.doc, { order: input.context, params, header: pdf.header, settings: input.settings, explicit: givenParams(info, input.fixParams?.[fixId]) });
    if (outcome.count > 0) {
      applied.push({ fixId, count: outcome.count, pages: outcome.pages });
      if (info.output === 'whole-file') wholeFileFix = true;
    } else skipped.push({ fixId, reason: outcome.skipReason ?? NOTHING_TO_CHANGE });
  }

  const changed = applied.length > 0;
  let savedAs: SaveMode | null = null;
  if (changed) {
    savedAs = await saveFixed({
      doc: pdf.doc,
      originalPath: input.path,
      outPath: input.outPath,
      tracker,
      unreferencedBefore,
      versionBefore,
      // A file read by rebuilding its structure, or written decrypted, is written whole.
      wholeFile: wholeFileFix || pdf.encryption !== null || pdf.repairs.length > 0,
    });
    await assertLoads(input.outPath);
  }
  return { changed, applied, skipped, paramsApplied, savedAs, encrypted: pdf.encryption !== null };
}

/** What a fix that found nothing to do is reported with. */
export const NOTHING_TO_CHANGE = 'Nothing to change: the file already meets what this fix ensures.';

/**
 * Whether the fixed file could still be saved as an incremental update, known
 * before any fix runs: not when it is written decrypted or was read by
 * repairing it (repairs only grow as objects are read), nor when every fix
 * asked for writes the file whole (then either one applies, or nothing is
 * saved). Only then is the walk for the objects unreferenced before the fixes
 * worth making (save-fixed.ts compares it with the one after).
 */
function incrementalPossible(pdf: OpenedPdf, fixes: readonly string[]): boolean {
  if (pdf.encryption !== null || pdf.repairs.length > 0) return false;
  return fixes.some((fixId) => FIX_IMPLEMENTATIONS[fixId] !== undefined && findFix(fixId) !== undefined && findFix(fixId)!.output !== 'whole-file');
}

/** The fixed file is opened again before it is reported, so a fix can never hand on a file that does not load. */
async function assertLoads(path: string): Promise<void> {
  const reopened = await openPdfFile(path).catch((e: unknown) => {
    throw new Error(`autofix produced a PDF that does not load again: ${e instanceof Error ? e.message : String(e)}`);
  });
  reopened.source.close();
}
