/**
 * The contract every fix implements: change the loaded document in place and
 * say how many things changed on which pages. A fix that finds nothing to
 * change returns count 0 and leaves the document untouched (the engine then
 * reports it skipped). A fix that cannot apply to this file (a spot colour
 * whose alternate is not CMYK, say) returns count 0 with a `skipReason`.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../domain/model';
import type { FileHeader } from '../core/file-header';
import type { ThresholdedCheckId } from '../preflight/check-catalogue';
import type { PreflightSettings } from '../preflight/settings';

export interface FixOutcome {
  count: number;
  /** 1-based pages where something changed (document-level changes add none). */
  pages: number[];
  /** What `count` counts, for logs and runtimeParams. */
  detail: string;
  /** With count 0: why nothing was changed, when it is not "nothing to change". */
  skipReason?: string;
}

export interface FixContext {
  /** The job's order context (artwork size, bleed…); null without one. */
  order: OrderContext | null;
  /** This fix's parameters with defaults applied (fix-catalogue: FixInfo.params). */
  params: Record<string, number | boolean | string>;
  /**
   * The header line as the file's bytes have it (pdf-lib keeps only the parsed
   * version, and saving writes a fresh line): for fixes that judge the line
   * itself, such as pdfa.prepare (a PDF/A-4 file's `%PDF-2.0   `); null when unknown.
   */
  header?: FileHeader | null;
  /**
   * The preflight settings of the job's profile with its order context applied
   * (preflight/settings.ts): a fix that resolves a check judges by that check's
   * thresholds (checkThreshold), so it changes what the check found. Absent
   * when the fix runs on its own; it then uses its parameters.
   */
  settings?: PreflightSettings;
  /** The parameters the request set itself (valid ones): these win over the check's thresholds (paramOrThreshold). */
  explicit?: ReadonlySet<string>;
}

export type Fix = (doc: PDFDocument, ctx: FixContext) => FixOutcome | Promise<FixOutcome>;

/**
 * A number parameter that mirrors a check's threshold: the request's own value
 * when it set one (a customer who asked for 14 pt gets 14 pt), else the
 * threshold the check judged by, else the parameter's default.
 */
export function paramOrThreshold(ctx: FixContext, param: string, checkId: ThresholdedCheckId, key: string): number {
  if (ctx.explicit?.has(param)) return Number(ctx.params[param]);
  return checkThreshold(ctx, checkId, key) ?? Number(ctx.params[param]);
}

/** A number threshold of a check as the settings resolved it; undefined without settings, or when the check is off or has no such threshold. */
export function checkThreshold(ctx: FixContext, checkId: ThresholdedCheckId, key: string): number | undefined {
  const value = ctx.settings?.thresholds(checkId)?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
