/**
 * Autofix: applies fixes to a PDF and writes the result to `outPath` when
 * anything changed. Which fixes: the explicit `items` when given, else the fixes
 * the preceding preflight recommended, else the profile's default fixes; they
 * run in the catalogue's order (fix-catalogue/index.ts), whatever order they
 * were named in. The input file is never modified; the output is re-opened
 * before it is reported, so a fix can never hand on a file that does not load.
 */
import { writeFile } from 'node:fs/promises';
import { UnprocessableFileError } from '../../domain/errors';
import type { OrderContext } from '../../domain/model';
import { findFix, findPreflightProfile, fixOrder, fixParams, PREFLIGHT_PROFILES } from '../profile-catalogue';
import { openPdfBytes, openPdfFile, type OpenedPdf } from '../core/load-pdf';
import { FIX_IMPLEMENTATIONS } from './registry';
import { dropUnreferencedObjects } from './unreferenced';

export interface AutofixInput {
  path: string;
  outPath: string;
  items: string[] | null;
  recommended: string[] | null;
  profileId: string;
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
  const profile = findPreflightProfile(input.profileId);
  if (!profile) {
    throw new UnprocessableFileError(
      `There is no preflight profile "${input.profileId}" (available: ${PREFLIGHT_PROFILES.map((p) => p.id).join(', ')}); GET /profiles lists them.`,
    );
  }
  const source = input.items ? 'items' : input.recommended ? 'recommended' : 'profile';
  const requested = [...new Set(input.items ?? input.recommended ?? profile.defaultFixes)].sort((a, b) => fixOrder(a) - fixOrder(b));
  const paramsApplied: Record<string, Record<string, number | boolean | string>> = {};

  const pdf = await openPdfFile(input.path);
  try {
    return await applyFixes(pdf, input, requested, paramsApplied, profile, source);
  } finally {
    pdf.source.close();
  }
}

async function applyFixes(
  pdf: OpenedPdf,
  input: AutofixInput,
  requested: string[],
  paramsApplied: Record<string, Record<string, number | boolean | string>>,
  profile: NonNullable<ReturnType<typeof findPreflightProfile>>,
  source: string,
): Promise<AutofixResult> {
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
    if (outcome.count > 0) applied.push({ fixId, count: outcome.count, pages: outcome.pages });
    else skipped.push({ fixId, reason: outcome.skipReason ?? 'Nothing to change: the file already meets what this fix ensures.' });
  }

  const changed = applied.length > 0;
  if (changed) {
    // What the fixes took out must leave the file, not linger as unreferenced objects.
    dropUnreferencedObjects(pdf.doc);
    // Classic cross-reference tables: readable by every workflow, and required by PDF/A-1.
    const bytes = await pdf.doc.save({ useObjectStreams: false, updateFieldAppearances: false });
    await openPdfBytes(bytes).catch((e: unknown) => {
      throw new Error(`autofix produced a PDF that does not load again: ${e instanceof Error ? e.message : String(e)}`);
    });
    await writeFile(input.outPath, bytes);
  }

  return {
    changed,
    applied,
    skipped,
    runtimeParams: {
      profileId: profile.id,
      fixes: requested,
      fixesFrom: source,
      ...(Object.keys(paramsApplied).length > 0 ? { fixParams: paramsApplied } : {}),
      ...(input.context?.artworkSize ? { artworkSize: input.context.artworkSize } : {}),
      ...(input.context?.bleed ? { bleed_mm: input.context.bleed.required_mm } : {}),
      // Saving a file that was only owner-password protected writes it decrypted.
      ...(changed && pdf.encryption ? { encryptionRemoved: true } : {}),
    },
  };
}
