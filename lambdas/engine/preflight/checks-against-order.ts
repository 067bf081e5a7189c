/**
 * Checks against the order context (docs/api.md §6): the trim size matches the
 * ordered artwork size (either orientation, within the tolerance), the page
 * count is in the ordered range, and live content (text, image edges) keeps
 * the ordered safety margin inside the trim. Each is inactive without its
 * context (settings.ts removes it).
 */
import { MM_PER_PT } from '../core/page-boxes';
import { num, plural, type MessageWriter, type Observation } from './findings';
import type { PdfCheckId } from './check-catalogue';
import { overlaps } from './inventory-page';
import { pageCountMessage, pageCountObservations } from './page-count';
import type { PdfPageFacts } from './pdf-facts';
import type { PreflightSettings } from './settings';
import { cap, dims, listText } from './wording';

/** Content closer than this (pt) to the trim line counts as placed on it (bleed), not near it. */
const ON_TRIM = 0.5;

/** Judges the pages against what the customer ordered (the order context in the settings). */
export function checkAgainstOrder(pages: PdfPageFacts[], pageCount: number, settings: PreflightSettings): Observation<PdfCheckId>[] {
  const out: Observation<PdfCheckId>[] = [];
  const art = settings.thresholds('artwork.size-mismatch');
  if (art) {
    const tol = Number(art.tolerance_mm);
    const w = Number(art.width_mm);
    const h = Number(art.height_mm);
    for (const p of pages) {
      const { width, height } = p.sizeMm;
      const fits = (a: number, b: number) => Math.abs(width - a) <= tol && Math.abs(height - b) <= tol;
      if (!fits(w, h) && !fits(h, w)) {
        const off = Math.min(Math.max(Math.abs(width - w), Math.abs(height - h)), Math.max(Math.abs(width - h), Math.abs(height - w)));
        out.push({ checkId: 'artwork.size-mismatch', page: p.page, bbox: p.trim, measured: { width_mm: width, height_mm: height }, required: { width_mm: w, height_mm: h, tolerance_mm: tol }, rank: -off });
      }
    }
  }

  const safety = settings.thresholds('safety.live-content');
  if (safety) {
    const minMm = Number(safety.min_mm);
    for (const p of pages) out.push(...safetyHits(p, minMm));
  }

  out.push(...pageCountObservations(pageCount, settings));
  return out;
}

/**
 * Text anywhere in the band between the trim and the safety line, and image
 * edges that end inside that band: an image that runs over the trim line is
 * bleeding on purpose on that side, while one that stops just short of it
 * leaves a sliver of paper or gets clipped when the cut wanders.
 */
function safetyHits(p: PdfPageFacts, minMm: number): Observation<PdfCheckId>[] {
  const out: Observation<PdfCheckId>[] = [];
  const k = p.userUnit * MM_PER_PT;
  const margin = minMm / k;
  const t = p.trim;
  for (const item of p.inventory.liveContent) {
    const b = item.bbox;
    if (!overlaps(b, t)) continue;
    // Distance of each edge inward from its trim edge (negative: beyond the trim).
    const inset = { left: b[0] - t[0], bottom: b[1] - t[1], right: t[2] - b[2], top: t[3] - b[3] };
    const sides = (Object.keys(inset) as (keyof typeof inset)[]).filter((side) =>
      item.kind === 'text' ? inset[side] < margin - 1e-6 : inset[side] > ON_TRIM && inset[side] < margin - 1e-6,
    );
    if (sides.length === 0) continue;
    const closest = Math.min(...sides.map((s) => inset[s])) * k;
    out.push({
      checkId: 'safety.live-content',
      page: p.page,
      bbox: b,
      measured: { kind: item.kind, distance_mm: round1(closest), sides },
      required: { min_mm: minMm },
      rank: closest,
    });
  }
  return out;
}

const round1 = (v: number) => Math.round(v * 10) / 10;

export const ORDER_MESSAGES = {
  'artwork.size-mismatch': ({ count, pagesText, worst }) => {
    const m = worst.measured as { width_mm: number; height_mm: number };
    const r = worst.required as { width_mm: number; height_mm: number; tolerance_mm: number };
    return count === 1
      ? `${cap(pagesText)} is ${dims(m.width_mm, m.height_mm)} but the ordered artwork size is ${dims(r.width_mm, r.height_mm)} (tolerance ${num(r.tolerance_mm)} mm).`
      : `${count} pages (${pagesText}) do not match the ordered artwork size of ${dims(r.width_mm, r.height_mm)} (tolerance ${num(r.tolerance_mm)} mm); page ${worst.page} is ${dims(m.width_mm, m.height_mm)}.`;
  },
  'safety.live-content': ({ observations, count, pagesText, worst }) => {
    const m = worst.measured as { kind: 'text' | 'image'; distance_mm: number };
    const min = num((worst.required as { min_mm: number }).min_mm);
    const kinds = [...new Set(observations.map((o) => (o.measured as { kind: 'text' | 'image' }).kind))];
    const what = listText(kinds.map((kd) => (kd === 'text' ? 'text' : 'image edges')));
    const where = m.distance_mm < 0 ? 'runs over the trim edge' : `is ${num(m.distance_mm)} mm from the trim edge`;
    return count === 1
      ? `${m.kind === 'text' ? 'Text' : 'An image edge'} on ${pagesText} ${where}, inside the ${min} mm safety margin; the cut may clip it. Keep live content at least ${min} mm inside the trim.`
      : `${cap(what)} lie inside the ${min} mm safety margin in ${plural(count, 'place')} on ${pagesText} (closest: ${m.kind === 'text' ? 'text' : 'an image edge'} on page ${worst.page} that ${where}); the cut may clip them. Keep live content at least ${min} mm inside the trim.`;
  },
  'document.page-count': ({ worst }) => pageCountMessage(worst, 'The PDF'),
} satisfies Partial<Record<PdfCheckId, MessageWriter>>;
