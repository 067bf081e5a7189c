/**
 * Visual proofs of a preflight report: an image of each page with located
 * findings (the first MAX_PROOF_PAGES such pages) with every finding framed in
 * its severity's colour and numbered as in the report, and the TrimBox and
 * BleedBox drawn as dashed lines. This is the picture a customer sees next to
 * "fix it for me".
 *
 * A finding's bbox belongs to its worst hit, and the report does not say on
 * which of its pages that hit is. A finding of one page is framed where it
 * is; a finding of several pages is framed on those of its pages where the
 * box is exactly something the report lists on that page (one of the page's
 * boxes, a placed image), and elsewhere gets its numbered badge alone in the
 * top left row, rather than a frame that may be on the wrong page.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import type { Rect } from '../core/page-boxes';
import type { PageSection, PreflightReport } from '../preflight/report';
import { renderPreviews } from './index';
import { clipToImage, userSpaceToPixels } from './proof-geometry';
import { proofOverlaySvg, type ProofMark, type ProofSeverity } from './proof-overlay';

export const MAX_PROOF_PAGES = 10;
/** Proof images fit inside this square: large enough for small type to be recognisable. */
export const PROOF_PX = 1200;
export const PROOF_QUALITY = 85;

export interface PlannedMark {
  number: number;
  severity: ProofSeverity;
  /** In user space of the page; null when the finding's spot on this page is not known. */
  bbox: Rect | null;
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
export function planProofs(report: Pick<PreflightReport, 'document' | 'findings' | 'pages' | 'images'>): ProofPlan[] {
  if (report.document.kind !== 'pdf') return [];
  const byPage = new Map<number, PlannedMark[]>();
  report.findings.forEach((finding, i) => {
    const bbox = finding.bbox;
    if (!bbox) return;
    const pages = finding.pages && finding.pages.length > 1 ? finding.pages : finding.page !== null ? [finding.page] : [];
    for (const page of pages) {
      const located = pages.length === 1 || knownOnPage(bbox, page, report);
      const list = byPage.get(page) ?? [];
      list.push({ number: i + 1, severity: finding.severity, bbox: located ? bbox : null });
      byPage.set(page, list);
    }
  });
  return [...byPage]
    .sort(([a], [b]) => a - b)
    .slice(0, MAX_PROOF_PAGES)
    .map(([page, marks]) => ({ page, marks }));
}

/** Whether `bbox` is exactly one of the page's boxes or an image placed on it. */
function knownOnPage(bbox: Rect, page: number, report: Pick<PreflightReport, 'pages' | 'images'>): boolean {
  const p = report.pages.find((s) => s.page === page);
  const boxes = p ? [p.mediaBox, p.cropBox, p.trimBox, p.bleedBox, p.artBox] : [];
  const images = report.images.filter((img) => img.page === page).map((img) => img.bbox);
  return [...boxes, ...images].some((r) => r !== null && sameRect(r, bbox));
}

const sameRect = (a: Rect, b: Rect): boolean => a.every((v, i) => Math.abs(v - b[i]!) < 0.01);

/** Renders the planned proofs of the PDF at `path` into `outDir` as JPEG files. */
export async function renderProofs(input: { path: string; report: PreflightReport; outDir: string }): Promise<ProofsResult> {
  const plans = planProofs(input.report);
  if (plans.length === 0) return { images: [], failures: [] };
  const rendered = await renderPreviews({
    path: input.path,
    fileType: 'pdf',
    params: { format: 'png', width: PROOF_PX, height: PROOF_PX, pages: plans.map((p) => p.page).join(','), thumbnail: false },
    outDir: join(input.outDir, 'proof-pages'),
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
  const marks: ProofMark[] = plan.marks.map((m) => ({ number: m.number, severity: m.severity, box: onImage(m.bbox) }));
  const svg = proofOverlaySvg({ ...size, marks, trim: onImage(page.trimBox), bleed: onImage(page.bleedBox) });
  const info = await sharp(image.path)
    .composite([{ input: Buffer.from(svg), top: 0, left: 0 }])
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: PROOF_QUALITY })
    .toFile(outPath);
  return { page: plan.page, path: outPath, mimeType: 'image/jpeg', width: info.width, height: info.height, sizeBytes: info.size, findings: plan.marks.map((m) => m.number) };
}
