/**
 * Autofix: applies fixes to a PDF and writes the result to `outPath` when
 * anything changed. Which fixes: the explicit `items` when given, else the fixes
 * the preceding preflight recommended, else the profile's default fixes; they
 * run in the catalogue's order (fix-catalogue/index.ts), whatever order they
 * were named in. The input file is never modified; the output is re-opened
 * before it is reported, so a fix can never hand on a file that does not load.
 */
import { UnprocessableFileError } from '../../domain/errors';
import type { OrderContext } from '../../domain/model';
import { findFix, findPreflightProfile, fixOrder, fixParams, PREFLIGHT_PROFILES } from '../profile-catalogue';
import { openPdfFile, type OpenedPdf } from '../core/load-pdf';
import type { PreflightProfileInfo } from '../preflight/profiles';
import { FIX_IMPLEMENTATIONS } from './registry';
import { trackChanges } from '../core/writer/track-changes';
import { saveFixed, type SaveMode } from './save-fixed';
import { unreferencedRefs } from './unreferenced';

export interface AutofixInput {
  path: string;
  outPath: string;
  items: string[] | null;
  recommended: string[] | null;
  /** A built-in profile's id, or a resolved profile (an account's own, as recorded at submission). */
  profileId: string | PreflightProfileInfo;
  context: OrderContext | null;
  /** Parameters per fix id (`params.fixParams` of the step); defaults fill the rest. */
  fixParams?: Record<string, unknown> | null;
}

export interface AutofixResult {
  changed: boolean;
  applied: { fixId: string; count: number; pages: number[] }[];
  skipped: { fixId: string; reason: string }[];
  runtimeParams: Record<string, unknown>;
}

export async function autofix(input: AutofixInput): Promise<AutofixResult> {
  const profile = typeof input.profileId === 'string' ? findPreflightProfile(input.profileId) : input.profileId;
  if (!profile) {
    throw new UnprocessableFileError(
      `There is no preflight profile "${String(input.profileId)}" (available: ${PREFLIGHT_PROFILES.map((p) => p.id).join(', ')}); GET /profiles lists them.`,
    );
  }
  const source = input.items ? 'items' : input.recommended ? 'recommended' : 'profile';
  const requested = [...new Set(input.items ?? input.recommended ?? profile.defaultFixes)].sort((a, b) => fixOrder(a) - fixOrder(b));
  const pdf = await openPdfFile(input.path);
  try {
    return await fixAndSave(pdf, input, { profileId: profile.id, requested, source });
  } finally {
    pdf.source.close();
  }
}

interface FixPlan {
  profileId: string;
  /** The fix ids to run, in the catalogue's order. */
  requested: string[];
  /** Where they came from: the request's items, the preflight's recommendation or the profile. */
  source: 'items' | 'recommended' | 'profile';
}

async function fixAndSave(pdf: OpenedPdf, input: AutofixInput, plan: FixPlan): Promise<AutofixResult> {
  const { requested, source } = plan;
  const paramsApplied: Record<string, Record<string, number | boolean | string>> = {};
  const tracker = trackChanges(pdf.doc.context);
  const unreferencedBefore = incrementalPossible(pdf, requested) ? new Set(unreferencedRefs(pdf.doc)) : null;
  const versionBefore = pdf.doc.context.header.getVersionString();
  let wholeFileFix = false;
  const applied: AutofixResult['applied'] = [];
  const skipped: AutofixResult['skipped'] = [];
  for (const fixId of requested) {
    const fix = FIX_IMPLEMENTATIONS[fixId];
    const info = findFix(fixId);
    if (!fix || !info) {
      skipped.push({ fixId, reason: `There is no fix "${fixId}"; GET /profiles lists the available fixes.` });
      continue;
    }
    const params = fixParams(info, input.fixParams?.[fixId]);
    if (info.params.length > 0) paramsApplied[fixId] = params;
    const outcome = await fix(pdf.doc, { order: input.context, params, header: pdf.header });
    if (outcome.count > 0) {
      applied.push({ fixId, count: outcome.count, pages: outcome.pages });
      if (info.output === 'whole-file') wholeFileFix = true;
    }
    else skipped.push({ fixId, reason: outcome.skipReason ?? 'Nothing to change: the file already meets what this fix ensures.' });
  }

  const changed = applied.length > 0;
  let written: SaveMode | null = null;
  if (changed) {
    written = await saveFixed({
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

  return {
    changed,
    applied,
    skipped,
    runtimeParams: {
      profileId: plan.profileId,
      fixes: requested,
      fixesFrom: source,
      ...(Object.keys(paramsApplied).length > 0 ? { fixParams: paramsApplied } : {}),
      ...(input.context?.artworkSize ? { artworkSize: input.context.artworkSize } : {}),
      ...(input.context?.bleed ? { bleed_mm: input.context.bleed.required_mm } : {}),
      // Saving a file that was only owner-password protected writes it decrypted.
      ...(changed && pdf.encryption ? { encryptionRemoved: true } : {}),
      // An incremental update keeps the original's bytes as they were (and a signature's byte range with them).
      ...(written ? { savedAs: written === 'incremental' ? 'incremental-update' : 'rewritten' } : {}),
    },
  };
}

/**
 * Whether the fixed file could still be saved as an incremental update, known
 * before any fix runs: not when it is written decrypted or was read by
 * repairing it (repairs only grow as objects are read), nor when every fix
 * asked for writes the file whole (then either one applies, or nothing is
 * saved). Only then is the walk for the objects unreferenced before the fixes
 * worth making (save-fixed.ts compares it with the one after).
 */
function incrementalPossible(pdf: OpenedPdf, requested: readonly string[]): boolean {
  if (pdf.encryption !== null || pdf.repairs.length > 0) return false;
  return requested.some((fixId) => FIX_IMPLEMENTATIONS[fixId] !== undefined && findFix(fixId) !== undefined && findFix(fixId)!.output !== 'whole-file');
}

/** The fixed file is opened again before it is reported, so a fix can never hand on a file that does not load. */
async function assertLoads(path: string): Promise<void> {
  const reopened = await openPdfFile(path).catch((e: unknown) => {
    throw new Error(`autofix produced a PDF that does not load again: ${e instanceof Error ? e.message : String(e)}`);
  });
  reopened.source.close();
}
