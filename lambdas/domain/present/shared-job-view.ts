/**
 * What the proof page is shown of a shared job (GET /share, docs/api.md §3, Share links): types
 * only, so the page's own code (web/src/proof/shared-api.ts) reads the presenter's shapes
 * (./shared-job.ts) without restating them.
 */
import type { Approval, JobGraph, TaskRecord } from '../model';
import type { PreflightFindingSummary } from '../step-results';

export type Severity = PreflightFindingSummary['severity'];

export interface PercentRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface SharedFinding {
  /** As numbered in the report and on the proof images. */
  number: number;
  severity: Severity;
  /** The report's sentence for the customer. */
  message: string;
  pages: number[];
  /** Whether a fix in the catalogue can resolve it. */
  fixable: boolean;
}

export interface SharedPage {
  page: number;
  /** The page rendered plainly (a previews step), to draw boxes over; null when only a proof exists. */
  previewUrl: string | null;
  /** The proof image, with every finding framed and numbered already; null when none was made of this page. */
  proofUrl: string | null;
  /** The image's pixel size, when known. */
  width: number | null;
  height: number | null;
  boxes: (PercentRect & { finding: number; severity: Severity })[];
  trimBox: PercentRect | null;
  bleedBox: PercentRect | null;
}

export interface SharedFile {
  name: string;
  status: TaskRecord['status'];
  outcome: TaskRecord['outcome'];
  /** Why the file could not be processed; only for a file in error. */
  reason: string | null;
  /** The preflight's verdict and counts; null without a finished preflight. */
  preflight: { outcome: 'pass' | 'warn' | 'fail'; errors: number; warnings: number; infos: number } | null;
  findings: SharedFinding[];
  pages: SharedPage[];
  /** The file autofix made, to download; null when none was made. */
  fixed: { fileName: string; sizeBytes: number; downloadUrl: string } | null;
}

export interface SharedJobView {
  job: { id: string; createdAt: string; status: JobGraph['job']['status']; outcome: JobGraph['job']['outcome']; finished: boolean };
  share: { expiresAt: string; allowDecision: boolean };
  approval: Approval | null;
  files: SharedFile[];
}
