/**
 * The parts of the preflight report the browser reads (its full shape: lambdas/engine/preflight/
 * report.ts, which the bundle cannot import: it reaches Node modules). Geometry is in PDF points
 * in each page's default user space; `findings` are in the report's order, and a finding's
 * number everywhere (lists, boxes, the proof images) is its place in that order, from 1.
 */
import type { Rect } from './geometry';
import type { Severity } from './severity';

export interface ReportFinding {
  checkId: string;
  severity: Severity;
  /** The sentence a customer reads. */
  message: string;
  /** The first page concerned; null for the document as a whole. */
  page: number | null;
  /** Every page concerned, when more than one. */
  pages?: number[];
  count: number;
  /** The worst hit's box, on `bboxPage`. */
  bbox: Rect | null;
  bboxPage: number | null;
  /** Which fix resolves it (GET /profiles `fixes` says what that fix does). */
  fix: { available: boolean; fixId: string | null; fixIds?: string[] };
  /** Every located hit (capped: `locationsTruncated`). */
  locations?: { page: number; bbox: Rect }[];
  locationsTruncated?: boolean;
}

export interface ReportPage {
  page: number;
  mediaBox: Rect;
  cropBox: Rect | null;
  trimBox: Rect | null;
  bleedBox: Rect | null;
  rotation: number;
  userUnit: number;
  sizeMm: { width: number; height: number };
}

export interface PreflightReport {
  profile: { id: string; name: string };
  outcome: 'pass' | 'warn' | 'fail';
  summary: { errors: number; warnings: number; infos: number; pages: number };
  document: { kind: 'pdf' | 'raster'; pageCount: number };
  pages: ReportPage[];
  findings: ReportFinding[];
  recommendedFixes: string[];
}
