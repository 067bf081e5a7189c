/**
 * What the public proof page shows of the one job its share link names
 * (docs/api.md §3, Share links): per file, its name, state and the customer-facing
 * sentences of its preflight findings; its pages as images with each located
 * finding's boxes; the fixed file when there is one; the job's approval.
 *
 * Nothing else of the job or the account is shown: no source URLs (they may
 * carry a customer's credentials), no storage keys, no order or customer
 * fields, no metaData, webhook, audit, review or other jobs. The fields are
 * copied one by one, so a field added to a record never leaks here.
 *
 * Boxes are given in percent of the page image (left, top, width, height),
 * computed with the geometry the proof images are drawn with
 * (engine/previews/proof-geometry.ts), so the page draws them without knowing
 * PDF coordinates. Finding numbers are the report's order, as on the proof
 * images, whose frames are drawn at the same places.
 */
import { clipToImage, userSpaceToPixels } from '../../engine/previews/proof-geometry';
import { isTerminal, type Approval, type JobGraph, type StepRecord, type StoredArtifact, type TaskRecord } from '../model';
import type { PreflightFindingSummary } from '../step-results';
import type { PercentRect, Severity, SharedFile, SharedFinding, SharedJobView, SharedPage } from './shared-job-view';

export type { PercentRect, SharedFile, SharedFinding, SharedJobView, SharedPage } from './shared-job-view';
import { downloadLink, type PresentDeps } from './artifacts';
import { finalFileOf, stepsOfTask } from './job';
import { stepResultLoader, type StepResultLoader } from './step-result';

type Rect = [number, number, number, number];

/** At most this many page images per file: enough to proof a brochure, bounded for a phone. */
export const MAX_SHARED_PAGES = 50;

interface ReportPage {
  page: number;
  mediaBox: Rect;
  cropBox: Rect | null;
  trimBox: Rect | null;
  bleedBox: Rect | null;
  rotation: number;
  userUnit: number;
}

interface ReportFinding extends PreflightFindingSummary {
  pages?: number[];
  page: number | null;
  bbox: Rect | null;
  bboxPage: number | null;
  locations?: { page: number; bbox: Rect }[];
}

interface Report {
  outcome: 'pass' | 'warn' | 'fail';
  summary: { errors: number; warnings: number; infos: number };
  findings: ReportFinding[];
  pages: ReportPage[];
}

const round = (n: number): number => Math.round(n * 100) / 100;

const isRect = (r: unknown): r is Rect => Array.isArray(r) && r.length === 4 && r.every((n) => typeof n === 'number' && Number.isFinite(n));

/**
 * Maps user-space rectangles of the page to percent of its image, clipped to the
 * image as the proof images clip their frames; null for a box wholly outside
 * the visible area (its finding is still listed).
 */
function percentOf(page: ReportPage | undefined): ((r: Rect) => PercentRect | null) | null {
  if (!page || !isRect(page.mediaBox)) return null;
  const toPixels = userSpaceToPixels(
    { mediaBox: page.mediaBox, cropBox: isRect(page.cropBox) ? page.cropBox : null, rotation: page.rotation ?? 0, userUnit: page.userUnit ?? 1 },
    { width: 100, height: 100 },
  );
  return (r) => {
    const p = clipToImage(toPixels(r), { width: 100, height: 100 });
    return p && { left: round(p.left), top: round(p.top), width: round(p.width), height: round(p.height) };
  };
}

/** The boxes of finding `f` on `page`: its located observations there, else its worst hit when that is on this page. */
function boxesOn(f: ReportFinding, page: number): Rect[] {
  const located = (f.locations ?? []).filter((l) => l.page === page && isRect(l.bbox)).map((l) => l.bbox);
  if (located.length > 0) return located;
  return f.bboxPage === page && isRect(f.bbox) ? [f.bbox] : [];
}

function findingPages(f: ReportFinding): number[] {
  if (Array.isArray(f.pages) && f.pages.length > 0) return f.pages;
  return typeof f.page === 'number' ? [f.page] : [];
}

/** The file's name as the customer knows it: never the source URL itself (it may carry credentials). */
function fileName(task: TaskRecord): string {
  if (task.name) return task.name;
  if (task.originalArtifact?.fileName) return task.originalArtifact.fileName;
  try {
    const last = new URL(task.source).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : 'file';
  } catch {
    return task.source.split(/[\\/]/).pop() || 'file';
  }
}

/** Page images by page: a previews step's, when it rendered the file the preflight saw (before any autofix). */
function pageImages(steps: StepRecord[], preflight: StepRecord | undefined): { previews: Map<number, StoredArtifact>; proofs: Map<number, StoredArtifact> } {
  const firstFix = steps.find((s) => s.type === 'autofix');
  const previewsStep = steps.find((s) => s.type === 'previews' && s.status === 'done' && (!firstFix || s.index < firstFix.index));
  const byPage = (outputs: StoredArtifact[] | undefined, role: StoredArtifact['role']) =>
    new Map((outputs ?? []).filter((o) => o.role === role && typeof o.page === 'number').map((o) => [o.page!, o]));
  return { previews: byPage(previewsStep?.outputs, 'preview'), proofs: byPage(preflight?.outputs, 'proof') };
}

async function sharedFile(graph: JobGraph, task: TaskRecord, deps: PresentDeps, load: StepResultLoader): Promise<SharedFile> {
  const steps = stepsOfTask(graph, task.id);
  const preflightStep = steps.find((s) => s.type === 'preflight' && s.status === 'done');
  const report = preflightStep ? ((await load(preflightStep)) as Report | null) : null;
  const findings = Array.isArray(report?.findings) ? report.findings : [];
  const reportPages = new Map((Array.isArray(report?.pages) ? report.pages : []).map((p) => [p.page, p]));
  const images = pageImages(steps, preflightStep);
  const pageNumbers = [...new Set([...images.previews.keys(), ...images.proofs.keys()])].sort((a, b) => a - b).slice(0, MAX_SHARED_PAGES);
  const url = async (a: StoredArtifact | undefined) => (a ? (await downloadLink(a, deps)).downloadUrl : null);

  const pages = await Promise.all(
    pageNumbers.map(async (page): Promise<SharedPage> => {
      const preview = images.previews.get(page);
      const proof = images.proofs.get(page);
      const geometry = reportPages.get(page);
      const percent = percentOf(geometry);
      const shown = preview ?? proof;
      return {
        page,
        previewUrl: await url(preview),
        proofUrl: await url(proof),
        width: shown?.width ?? null,
        height: shown?.height ?? null,
        boxes: percent
          ? findings.flatMap((f, i) =>
              boxesOn(f, page).flatMap((r) => {
                const box = percent(r);
                return box ? [{ finding: i + 1, severity: f.severity, ...box }] : [];
              }),
            )
          : [],
        trimBox: percent && isRect(geometry?.trimBox) ? percent(geometry.trimBox) : null,
        bleedBox: percent && isRect(geometry?.bleedBox) ? percent(geometry.bleedBox) : null,
      };
    }),
  );
  const final = finalFileOf(task);
  const fixed = final && final.role === 'fixed' ? { fileName: final.fileName, sizeBytes: final.sizeBytes, downloadUrl: (await downloadLink(final, deps)).downloadUrl } : null;
  return {
    name: fileName(task),
    status: task.status,
    outcome: task.outcome,
    reason: task.status === 'error' ? (task.reason ?? 'The file could not be processed.') : null,
    preflight: report ? { outcome: report.outcome, errors: report.summary.errors, warnings: report.summary.warnings, infos: report.summary.infos } : null,
    findings: findings.map((f, i) => ({ number: i + 1, severity: f.severity, message: f.message, pages: findingPages(f), fixable: f.fix?.available === true })),
    pages,
    fixed,
  };
}

export async function presentSharedJob(graph: JobGraph, share: { expiresAt: number; allowDecision: boolean }, deps: PresentDeps): Promise<SharedJobView> {
  const { job } = graph;
  const load = stepResultLoader(deps.blobs);
  return {
    job: { id: job.id, createdAt: job.createdAt, status: job.status, outcome: job.outcome, finished: isTerminal(job.status) },
    share: { expiresAt: new Date(share.expiresAt * 1000).toISOString(), allowDecision: share.allowDecision },
    approval: job.approval ? { decision: job.approval.decision, note: job.approval.note, at: job.approval.at } : null,
    files: await Promise.all(graph.tasks.map((t) => sharedFile(graph, t, deps, load))),
  };
}
