/**
 * How a fix is described to clients (GET /profiles `fixes`) and to the engine:
 * what it does, which findings it resolves, its parameters with their defaults,
 * and whether it may change how a page looks. Import-free: the API's bundle
 * reads it without pulling in pdf-lib.
 */
import type { CheckId } from '../preflight/check-catalogue';

export interface FixParamSpec {
  name: string;
  type: 'number' | 'boolean' | 'string';
  default: number | boolean | string;
  description: string;
  /** Numbers: the allowed range (inclusive). */
  min?: number;
  max?: number;
  /** Strings: the allowed values. */
  values?: readonly string[];
}

export type FixParamValues = Record<string, number | boolean | string>;

/**
 * Rules between parameters, for the few fixes that have them: `defaults`
 * settles a parameter whose default depends on another one when the request
 * leaves it out; `problem` says why a combination cannot be applied (a 400 at
 * submission; the engine skips with the same sentence).
 */
export interface FixParamRelations {
  defaults?: (params: FixParamValues, given: Readonly<Record<string, unknown>>) => FixParamValues;
  problem?: (params: FixParamValues) => string | null;
}

export interface FixInfo {
  id: string;
  name: string;
  description: string;
  /** Preflight checks whose findings this fix can resolve. */
  resolves: CheckId[];
  params: FixParamSpec[];
  /**
   * `none`: the page prints exactly as before (declarations, metadata, removed
   * scripts); the autofix bench renders before and after and requires them equal
   * inside the TrimBox. `intended`: changing the printed result is the point
   * (mirrored bleed, downsampled images, converted colour), and the bench checks
   * only that nothing else broke.
   */
  appearance: 'none' | 'intended';
  /**
   * For an `intended` fix whose change lies only outside the TrimBox (mirrored
   * bleed): inside it the page prints exactly as before, which the autofix
   * bench checks as it does for `none`.
   */
  printsSameInsideTrim?: true;
  /**
   * `whole-file`: a file this fix changed is written anew, never as an
   * incremental update appended to the original. An update keeps the original
   * revision's bytes, so what a removal fix took out (scripts, attachments,
   * annotations, layers, form fields, full-resolution images) would still be
   * in the file for anyone who looks; and a standard's preparation wants one
   * clean revision. Left out: the fewest bytes that do the job (autofix/save-fixed.ts).
   */
  output?: 'whole-file';
  /**
   * Fixes this one must run after when both run, because it works on what they
   * leave (bleed.mirror needs the TrimBox boxes.normalize sets). The order of
   * application is derived from these (fix-order.ts), never from a request's
   * order; where nothing is declared, the catalogue's order decides.
   */
  runsAfter?: readonly string[];
  relations?: FixParamRelations;
}

export const fix = (f: Omit<FixInfo, 'params'> & Partial<Pick<FixInfo, 'params'>>): FixInfo => ({ params: [], ...f });
