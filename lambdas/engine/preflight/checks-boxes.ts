/**
 * Page geometry checks: the TrimBox is stated, the boxes lie within the
 * MediaBox and agree with each other, there is enough bleed, the pages share
 * one size and none is empty.
 */
import { contains, MM_PER_PT, type Rect } from '../core/page-boxes';
import { num, pagesText, plural, type MessageWriter, type Observation } from './findings';
import type { PdfCheckId } from './check-catalogue';
import type { PdfPageFacts } from './pdf-facts';
import type { PreflightSettings } from './settings';
import { cap, dims } from './wording';
import { bleedMirrorReaches, pageContentDecodes } from '../criteria/bleed-mirror-reach';

/** Box comparisons allow this much (pt) for rounding by the applications that write them. */
const BOX_TOLERANCE = 0.1;

export function checkBoxes(pages: PdfPageFacts[], settings: PreflightSettings): Observation<PdfCheckId>[] {
  const out: Observation<PdfCheckId>[] = [];
  const on = (id: PdfCheckId) => settings.severity(id) !== 'off';
  const requiredBleed = Number(settings.thresholds('bleed.insufficient')?.required_mm ?? 0);

  for (const p of pages) {
    const { declared, media, crop, trim, bleed } = p.boxes;
    const k = p.userUnit * MM_PER_PT;
    if (on('boxes.trimbox-missing') && !declared.TrimBox) {
      out.push({ checkId: 'boxes.trimbox-missing', page: p.page, bbox: media, measured: null, required: 'TrimBox' });
    }
    if (on('boxes.trimbox-outside-mediabox') && declared.TrimBox && !contains(media, declared.TrimBox)) {
      const over = overhang(media, declared.TrimBox) * k;
      out.push({ checkId: 'boxes.trimbox-outside-mediabox', page: p.page, bbox: declared.TrimBox, measured: { overhang_mm: round1(over) }, required: { overhang_mm: 0 }, rank: -over });
    }
    if (on('boxes.bleedbox-outside-mediabox') && declared.BleedBox && !contains(media, declared.BleedBox)) {
      const over = overhang(media, declared.BleedBox) * k;
      out.push({ checkId: 'boxes.bleedbox-outside-mediabox', page: p.page, bbox: declared.BleedBox, measured: { overhang_mm: round1(over) }, required: { overhang_mm: 0 }, rank: -over });
    }
    if (on('boxes.inconsistent')) out.push(...inconsistencies(p));
    if (on('bleed.insufficient') && declared.TrimBox && requiredBleed > 0 && p.bleedMm) {
      const least = Math.min(p.bleedMm.top, p.bleedMm.right, p.bleedMm.bottom, p.bleedMm.left);
      if (least < requiredBleed - 0.05) {
        // boxes.normalize can only declare bleed the page has room for; without
        // room, bleed.mirror makes the page larger and draws the bleed.
        const room = Math.min(trim[0] - media[0], trim[1] - media[1], media[2] - trim[2], media[3] - trim[3]) * k;
        const fixId = room >= requiredBleed - 0.05 ? 'boxes.normalize' : 'bleed.mirror';
        // Neither fix can make bleed for a TrimBox larger than the page (criteria/bleed-mirror-reach.ts).
        const fixable = fixId === 'boxes.normalize' || (bleedMirrorReaches(media, declared.TrimBox) && pageContentDecodes(p.inventory.limits));
        out.push({ checkId: 'bleed.insufficient', page: p.page, bbox: bleed, measured: { bleed_mm: p.bleedMm }, required: { required_mm: requiredBleed }, rank: least, fixId, fixable });
      }
    }
    // A page whose content could not be read is not known to be empty.
    if (on('pages.empty') && p.inventory.empty && p.inventory.limits.length === 0) {
      out.push({ checkId: 'pages.empty', page: p.page, bbox: crop, measured: { empty: true }, required: 'visible content' });
    }
  }

  if (on('pages.mixed-sizes') && pages.length > 1) {
    const tolerance = Number(settings.thresholds('pages.mixed-sizes')?.tolerance_mm ?? 1);
    const sizes = clusterSizes(pages.map((p) => ({ page: p.page, ...p.sizeMm })), tolerance);
    if (sizes.length > 1) out.push({ checkId: 'pages.mixed-sizes', page: null, measured: sizes, required: 'one page size' });
  }
  return out;
}

type Problem = 'trim-outside-bleed' | 'trim-outside-crop' | 'art-outside-bleed';

/**
 * Boxes that contradict each other. An ArtBox reaching into the bleed is what
 * Illustrator writes for artwork that bleeds, so only an ArtBox beyond the
 * bleed area counts. The box fix resolves the first two (it grows the BleedBox
 * to hold the TrimBox and sets the CropBox to the MediaBox), never the third.
 */
function inconsistencies(p: PdfPageFacts): Observation<PdfCheckId>[] {
  const { declared, media, bleed } = p.boxes;
  const trim = declared.TrimBox;
  const found: { problem: Problem; bbox: Rect; fixable: boolean }[] = [];
  if (trim && declared.BleedBox && !contains(declared.BleedBox, trim, BOX_TOLERANCE)) {
    found.push({ problem: 'trim-outside-bleed', bbox: declared.BleedBox, fixable: contains(media, trim, BOX_TOLERANCE) });
  }
  if (trim && declared.CropBox && !contains(declared.CropBox, trim, BOX_TOLERANCE)) {
    found.push({ problem: 'trim-outside-crop', bbox: declared.CropBox, fixable: contains(media, trim, BOX_TOLERANCE) });
  }
  if (declared.ArtBox && !contains(bleed, declared.ArtBox, BOX_TOLERANCE)) {
    found.push({ problem: 'art-outside-bleed', bbox: declared.ArtBox, fixable: false });
  }
  return found.map((f) => ({ checkId: 'boxes.inconsistent', page: p.page, bbox: f.bbox, measured: { problem: f.problem }, required: 'TrimBox within BleedBox and CropBox; ArtBox within the bleed area', fixable: f.fixable }));
}

function overhang(outer: Rect, inner: Rect): number {
  return Math.max(0, outer[0] - inner[0], outer[1] - inner[1], inner[2] - outer[2], inner[3] - outer[3]);
}

const round1 = (v: number) => Math.round(v * 10) / 10;

type BleedMm = NonNullable<PdfPageFacts['bleedMm']>;

/** The page's bleed as one number: its least side, and none where the BleedBox cuts into the trim (a negative side). */
export const leastBleedMm = (b: BleedMm): number => Math.max(0, Math.min(b.top, b.right, b.bottom, b.left));

export interface SizeCluster {
  width_mm: number;
  height_mm: number;
  pages: number[];
}

/** Groups page sizes that match within the tolerance, ignoring orientation. */
function clusterSizes(sizes: { page: number; width: number; height: number }[], tolerance: number): SizeCluster[] {
  const clusters: SizeCluster[] = [];
  for (const s of sizes) {
    const [a, b] = [Math.min(s.width, s.height), Math.max(s.width, s.height)];
    const hit = clusters.find((c) => Math.abs(Math.min(c.width_mm, c.height_mm) - a) <= tolerance && Math.abs(Math.max(c.width_mm, c.height_mm) - b) <= tolerance);
    if (hit) hit.pages.push(s.page);
    else clusters.push({ width_mm: s.width, height_mm: s.height, pages: [s.page] });
  }
  return clusters;
}

const overhangOf = (o: Observation) => (o.measured as { overhang_mm: number }).overhang_mm;
const on = (count: number, pages: string) => (count === 1 ? pages : `${count} pages (${pages})`);

const PROBLEM_TEXT: Record<Problem, string> = {
  'trim-outside-bleed': 'the TrimBox is not inside the BleedBox',
  'trim-outside-crop': 'the TrimBox is not inside the CropBox, so part of the finished page is hidden',
  'art-outside-bleed': 'the ArtBox extends beyond the bleed area',
};

export const BOX_MESSAGES = {
  'boxes.trimbox-missing': ({ count, pagesText }) =>
    count === 1
      ? `${cap(pagesText)} has no TrimBox; the printer cannot tell where to cut.`
      : `${count} pages have no TrimBox (${pagesText}); the printer cannot tell where to cut.`,
  'boxes.trimbox-outside-mediabox': ({ count, pagesText, worst }) =>
    `The TrimBox extends beyond the MediaBox on ${on(count, pagesText)} by ${count === 1 ? '' : 'up to '}${num(overhangOf(worst))} mm; part of the finished size lies outside the page.`,
  'boxes.bleedbox-outside-mediabox': ({ count, pagesText, worst }) =>
    `The BleedBox extends beyond the MediaBox on ${on(count, pagesText)} by ${count === 1 ? '' : 'up to '}${num(overhangOf(worst))} mm; the bleed stated there does not exist on the page.`,
  'boxes.inconsistent': ({ observations, pagesText }) => {
    const problems = [...new Set(observations.map((o) => (o.measured as { problem: Problem }).problem))].map((pr) => PROBLEM_TEXT[pr]);
    return `The page boxes contradict each other on ${pagesText}: ${problems.join('; ')}. The printer cannot be sure which area is the finished page.`;
  },
  'bleed.insufficient': ({ count, pagesText, worst }) => {
    const least = leastBleedMm((worst.measured as { bleed_mm: BleedMm }).bleed_mm);
    const req = num((worst.required as { required_mm: number }).required_mm);
    return count === 1
      ? `${cap(pagesText)} has ${num(least)} mm bleed where ${req} mm is required; artwork that reaches the edge may show white slivers after cutting.`
      : `${count} pages have less than the required ${req} mm bleed (${pagesText}; least ${num(least)} mm on page ${worst.page}); artwork that reaches the edge may show white slivers after cutting.`;
  },
  'pages.mixed-sizes': ({ worst }) => {
    const clusters = worst.measured as SizeCluster[];
    const list = clusters.map((c) => `${dims(c.width_mm, c.height_mm)} (${pagesText(c.pages)})`);
    return `The PDF mixes ${clusters.length} page sizes: ${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}.`;
  },
  'pages.empty': ({ count, pagesText }) =>
    count === 1
      ? `${cap(pagesText)} is empty: nothing visible is printed on it. Remove it unless a blank page is intended.`
      : `${plural(count, 'page')} are empty (${pagesText}): nothing visible is printed on them. Remove them unless blank pages are intended.`,
} satisfies Partial<Record<PdfCheckId, MessageWriter>>;
