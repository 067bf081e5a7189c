/**
 * Visual proofs of a preflight report: an image of each page with located
 * findings (the first MAX_PROOF_PAGES such pages) with every finding framed in
 * its severity's colour and numbered as in the report, and the TrimBox and
 * BleedBox drawn as dashed lines. This is the picture a customer sees next to
 * "fix it for me".
 *
 * A finding is framed on a page at every box its `locations` list there,
 * each frame with the finding's number; without locations on that page, at
 * its worst hit's `bbox` when `bboxPage` is that page. A page the finding
 * concerns where neither says where (a page-level observation, or one the
 * report's location caps left out) gets the numbered badge alone in the top
 * left row, rather than a frame that may be in the wrong place.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import type { Rect } from '../core/page-boxes';
import type { Finding } from '../preflight/findings';
import type { PageSection, PreflightReport } from '../preflight/report';
import { renderPreviews } from './index';
import { clipToImage, userSpaceToPixels, type PixelRect } from './proof-geometry';
import { proofOverlaySvg, type ProofMark, type ProofSeverity } from './proof-overlay';

export const MAX_PROOF_PAGES = 10;
/** Proof images fit inside this square: large enough for small type to be recognisable. */
export const PROOF_PX = 1200;
export const PROOF_QUALITY = 85;

export interface PlannedMark {
  number: number;
  severity: ProofSeverity;
  /** In user space of the page, each framed; empty when the finding's spot on this page is not known. */
  boxes: Rect[];
}

export interface ProofPlan {
  page: number;
  marks: PlannedMark[];
}

export interface ProofImage {
  page: number;
  path: string;
  mimeType: 'image/jpeg';
  width: number;
  height: number;
  sizeBytes: number;
  /** The finding numbers marked on it. */
  findings: number[];
}

export interface ProofsResult {
  images: ProofImage[];
  /** Pages planned but not delivered, with why. */
  failures: { page: number; reason: string }[];
}

/** The pages that get a proof and what is marked on each; empty for a raster report or one without located findings. */
export function planProofs(report: Pick<PreflightReport, 'document' | 'findings'>): ProofPlan[] {
  if (report.document.kind !== 'pdf') return [];
  const byPage = new Map<number, PlannedMark[]>();
  report.findings.forEach((finding, i) => {
    if (!isLocated(finding)) return;
    const pages = finding.pages && finding.pages.length > 1 ? finding.pages : finding.page !== null ? [finding.page] : [];
    for (const page of pages) {
      const list = byPage.get(page) ?? [];
      list.push({ number: i + 1, severity: finding.severity, boxes: boxesOn(finding, page) });
      byPage.set(page, list);
    }
  });
  return [...byPage]
    .sort(([a], [b]) => a - b)
    .slice(0, MAX_PROOF_PAGES)
    .map(([page, marks]) => ({ page, marks }));
}

/** Whether the report says where on some page the finding is. */
const isLocated = (f: Finding): boolean => (f.locations?.length ?? 0) > 0 || (f.bbox !== null && f.bboxPage !== null);

/** The finding's boxes on `page`: its locations there, else its worst hit's box when that is on this page. */
function boxesOn(f: Finding, page: number): Rect[] {
  const listed = (f.locations ?? []).filter((l) => l.page === page).map((l) => l.bbox);
  if (listed.length > 0) return listed;
  return f.bbox && f.bboxPage === page ? [f.bbox] : [];
}

/** Renders the planned proofs of the PDF at `path` into `outDir` as JPEG files. */
/** `deadline` (epoch ms): when rendering must be over; pages still rendering then are stopped and reported. */
export async function renderProofs(input: { path: string; report: PreflightReport; outDir: string; deadline?: number }): Promise<ProofsResult> {
  const plans = planProofs(input.report);
  if (plans.length === 0) return { images: [], failures: [] };
  const rendered = await renderPreviews({
    file: input.path,
    fileType: 'pdf',
    params: { format: 'png', width: PROOF_PX, height: PROOF_PX, pages: plans.map((p) => p.page).join(','), thumbnail: false },
    outDir: join(input.outDir, 'proof-pages'),
    deadline: input.deadline,
  });
  const images: ProofImage[] = [];
  const failures = [...rendered.failures];
  for (const plan of plans) {
    const image = rendered.images.find((i) => i.role === 'preview' && i.page === plan.page);
    const section = input.report.pages.find((p) => p.page === plan.page);
    if (!image) continue; // its reason is among the renderer's failures
    if (!section) {
      failures.push({ page: plan.page, reason: `The report has no geometry for page ${plan.page}.` });
      continue;
    }
    images.push(await drawProof(image, section, plan, join(input.outDir, `proof-page-${plan.page}.jpg`)));
  }
  return { images, failures };
}

async function drawProof(image: { path: string; width: number; height: number }, page: PageSection, plan: ProofPlan, outPath: string): Promise<ProofImage> {
  const size = { width: image.width, height: image.height };
  const toPixels = userSpaceToPixels({ mediaBox: page.mediaBox, cropBox: page.cropBox, rotation: page.rotation, userUnit: page.userUnit }, size);
  const onImage = (r: Rect | null) => (r ? clipToImage(toPixels(r), size) : null);
  // One frame per box on the image; a finding none of whose boxes shows keeps its badge.
  const marks = plan.marks.flatMap((m): ProofMark[] => {
    const boxes = m.boxes.map(onImage).filter((b): b is PixelRect => b !== null);
    return boxes.length > 0 ? boxes.map((box) => ({ number: m.number, severity: m.severity, box })) : [{ number: m.number, severity: m.severity, box: null }];
  });
  const svg = proofOverlaySvg({ ...size, marks, trim: onImage(page.trimBox), bleed: onImage(page.bleedBox) });
  const info = await sharp(image.path)
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: PROOF_QUALITY })
    .toFile(outPath);
  return { page: plan.page, path: outPath, mimeType: 'image/jpeg', width: info.width, height: info.height, sizeBytes: info.size, findings: plan.marks.map((m) => m.number) };
}
