/**
 * The checks of a PDF preflight: each judges the gathered facts against the
 * profile's (context-narrowed) thresholds and emits observations; the messages
 * below turn a group of observations into the sentence a customer reads.
 */
import { contains, MM_PER_PT, type Rect } from '../core/page-boxes';
import { num, pagesText, plural, type MessageWriter, type Observation } from './findings';
import { pageCountMessage, pageCountObservations } from './page-count';
import type { PdfFacts } from './pdf-facts';
import type { PreflightSettings } from './settings';

export function checkPdf(facts: PdfFacts, settings: PreflightSettings): Observation[] {
  const out: Observation[] = [];
  const active = (id: string) => settings.severity(id) !== 'off';
  const t = (id: string) => settings.thresholds(id) ?? {};

  if (active('pdf.encrypted') && facts.document.encrypted) {
    out.push({ checkId: 'pdf.encrypted', page: null, measured: facts.document.encryption ?? true, required: false });
  }

  if (active('fonts.not-embedded')) {
    for (const f of facts.fonts) {
      if (f.embedded || !f.visible) continue;
      for (const page of f.usedOnPages) {
        out.push({ checkId: 'fonts.not-embedded', page, subject: `${f.name} (${f.type})`, measured: { font: f.name, embedded: false }, required: { embedded: true } });
      }
    }
  }

  for (const p of facts.pages) {
    const { declared, media, trim, bleed } = p.boxes;
    const k = p.userUnit * MM_PER_PT;
    if (active('boxes.trimbox-missing') && !declared.TrimBox) {
      out.push({ checkId: 'boxes.trimbox-missing', page: p.page, measured: null, required: 'TrimBox' });
    }
    if (active('boxes.trimbox-outside-mediabox') && declared.TrimBox && !contains(media, declared.TrimBox)) {
      const over = overhang(media, declared.TrimBox) * k;
      out.push({ checkId: 'boxes.trimbox-outside-mediabox', page: p.page, bbox: declared.TrimBox, measured: { overhang_mm: round1(over) }, required: { overhang_mm: 0 }, rank: -over });
    }
    if (active('boxes.bleedbox-outside-mediabox') && declared.BleedBox && !contains(media, declared.BleedBox)) {
      const over = overhang(media, declared.BleedBox) * k;
      out.push({ checkId: 'boxes.bleedbox-outside-mediabox', page: p.page, bbox: declared.BleedBox, measured: { overhang_mm: round1(over) }, required: { overhang_mm: 0 }, rank: -over });
    }
    const required = Number(t('bleed.insufficient').required_mm ?? 0);
    if (active('bleed.insufficient') && declared.TrimBox && required > 0 && p.bleedMm) {
      const least = Math.min(p.bleedMm.top, p.bleedMm.right, p.bleedMm.bottom, p.bleedMm.left);
      if (least < required - 0.05) {
        // The fix can only declare bleed the page actually has room for.
        const room = Math.min(trim[0] - media[0], trim[1] - media[1], media[2] - trim[2], media[3] - trim[3]) * k;
        out.push({ checkId: 'bleed.insufficient', page: p.page, bbox: bleed, measured: { bleed_mm: p.bleedMm }, required: { required_mm: required }, rank: least, fixable: room >= required - 0.05 });
      }
    }
  }

  if (active('pages.mixed-sizes') && facts.pages.length > 1) {
    const tolerance = Number(t('pages.mixed-sizes').tolerance_mm ?? 1);
    const sizes = clusterSizes(facts.pages.map((p) => ({ page: p.page, ...p.sizeMm })), tolerance);
    if (sizes.length > 1) out.push({ checkId: 'pages.mixed-sizes', page: null, measured: sizes, required: 'one page size' });
  }

  if (active('document.javascript')) {
    for (const a of facts.actions) {
      if (a.type !== 'JavaScript' && a.type !== 'Launch') continue;
      out.push({ checkId: 'document.javascript', page: a.page, measured: { type: a.type, location: a.location }, required: 'no JavaScript or launch actions' });
    }
  }

  const low = t('images.resolution-low');
  const marginal = t('images.resolution-marginal');
  for (const img of facts.images) {
    const min = Number(img.bitDepthOne ? low.min_ppi_1bit : low.min_ppi);
    const rec = Number(img.bitDepthOne ? marginal.recommended_ppi_1bit : marginal.recommended_ppi);
    const measured = { effective_ppi: img.effectivePpi, width_px: img.widthPx, height_px: img.heightPx, placed_mm: img.placedMm };
    if (active('images.resolution-low') && img.effectivePpi < min) {
      out.push({ checkId: 'images.resolution-low', page: img.page, measured, required: { min_ppi: min }, rank: img.effectivePpi });
    } else if (active('images.resolution-marginal') && img.effectivePpi < rec) {
      out.push({ checkId: 'images.resolution-marginal', page: img.page, measured, required: { recommended_ppi: rec }, rank: img.effectivePpi });
    }
  }

  const art = settings.thresholds('artwork.size-mismatch');
  if (art) {
    const tol = Number(art.tolerance_mm);
    const w = Number(art.width_mm);
    const h = Number(art.height_mm);
    for (const p of facts.pages) {
      const { width, height } = p.sizeMm;
      const fits = (a: number, b: number) => Math.abs(width - a) <= tol && Math.abs(height - b) <= tol;
      if (!fits(w, h) && !fits(h, w)) {
        const off = Math.min(Math.max(Math.abs(width - w), Math.abs(height - h)), Math.max(Math.abs(width - h), Math.abs(height - w)));
        out.push({ checkId: 'artwork.size-mismatch', page: p.page, measured: { width_mm: width, height_mm: height }, required: { width_mm: w, height_mm: h, tolerance_mm: tol }, rank: -off });
      }
    }
  }

  out.push(...pageCountObservations(facts.document.pageCount, settings));
  return out;
}

function overhang(outer: Rect, inner: Rect): number {
  return Math.max(0, outer[0] - inner[0], outer[1] - inner[1], inner[2] - outer[2], inner[3] - outer[3]);
}

const round1 = (v: number) => Math.round(v * 10) / 10;

interface SizeCluster {
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

const dims = (w: unknown, h: unknown) => `${num(Number(w))} × ${num(Number(h))} mm`;
const LOCATION_TEXT: Record<string, string> = {
  'document-javascript': 'document JavaScript',
  'open-action': 'an action run when the file opens',
  'document-additional-action': 'document events',
  'page-additional-action': 'page events',
  'annotation-action': 'links or buttons',
  'annotation-additional-action': 'annotation events',
  'field-additional-action': 'form field events',
  'outline-action': 'bookmarks',
};

export const PDF_MESSAGES: Record<string, MessageWriter> = {
  'pdf.encrypted': ({ worst }) => {
    const m = worst.measured as { printingAllowed?: boolean | null } | true;
    const noPrint = typeof m === 'object' && m.printingAllowed === false;
    return `The PDF is encrypted${noPrint ? ' and its permissions do not allow printing' : ''}; some print workflows refuse or alter encrypted files, so send an unprotected version.`;
  },
  'fonts.not-embedded': ({ subject, pagesText }) =>
    `The font ${subject} is not embedded (used on ${pagesText}); the printer would substitute another font and the text would look different. Embed all fonts when exporting the PDF.`,
  'boxes.trimbox-missing': ({ count, pagesText }) =>
    count === 1
      ? `${cap(pagesText)} has no TrimBox; the printer cannot tell where to cut.`
      : `${count} pages have no TrimBox (${pagesText}); the printer cannot tell where to cut.`,
  'boxes.trimbox-outside-mediabox': ({ count, pagesText, worst }) =>
    `The TrimBox extends beyond the MediaBox on ${count === 1 ? pagesText : `${count} pages (${pagesText})`} by ${count === 1 ? '' : 'up to '}${num(overhangOf(worst))} mm; part of the finished size lies outside the page.`,
  'boxes.bleedbox-outside-mediabox': ({ count, pagesText, worst }) =>
    `The BleedBox extends beyond the MediaBox on ${count === 1 ? pagesText : `${count} pages (${pagesText})`} by ${count === 1 ? '' : 'up to '}${num(overhangOf(worst))} mm; the bleed stated there does not exist on the page.`,
  'bleed.insufficient': ({ count, pagesText, worst }) => {
    const m = worst.measured as { bleed_mm: Record<string, number> };
    const least = Math.min(...Object.values(m.bleed_mm));
    const req = num((worst.required as { required_mm: number }).required_mm);
    return count === 1
      ? `${cap(pagesText)} has ${num(Math.max(0, least))} mm bleed where ${req} mm is required; artwork that reaches the edge may show white slivers after cutting.`
      : `${count} pages have less than the required ${req} mm bleed (${pagesText}; least ${num(Math.max(0, least))} mm on page ${worst.page}); artwork that reaches the edge may show white slivers after cutting.`;
  },
  'pages.mixed-sizes': ({ worst }) => {
    const clusters = worst.measured as SizeCluster[];
    const list = clusters.map((c) => `${dims(c.width_mm, c.height_mm)} (${pagesText(c.pages)})`);
    return `The PDF mixes ${clusters.length} page sizes: ${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}.`;
  },
  'document.javascript': ({ observations, count }) => {
    const where = [...new Set(observations.map((o) => LOCATION_TEXT[(o.measured as { location: string }).location] ?? 'actions'))];
    return `The PDF contains ${plural(count, 'JavaScript or launch action')} (${where.join(', ')}); print workflows ignore them and some refuse the file.`;
  },
  'images.resolution-low': (g) => resolutionMessage(g, 'minimum', 'it will print visibly blurred or pixelated', 'min_ppi'),
  'images.resolution-marginal': (g) => resolutionMessage(g, 'recommended', 'fine detail may look soft', 'recommended_ppi'),
  'artwork.size-mismatch': ({ count, pagesText, worst }) => {
    const m = worst.measured as { width_mm: number; height_mm: number };
    const r = worst.required as { width_mm: number; height_mm: number; tolerance_mm: number };
    return count === 1
      ? `${cap(pagesText)} is ${dims(m.width_mm, m.height_mm)} but the ordered artwork size is ${dims(r.width_mm, r.height_mm)} (tolerance ${num(r.tolerance_mm)} mm).`
      : `${count} pages (${pagesText}) do not match the ordered artwork size of ${dims(r.width_mm, r.height_mm)} (tolerance ${num(r.tolerance_mm)} mm); page ${worst.page} is ${dims(m.width_mm, m.height_mm)}.`;
  },
  'document.page-count': ({ worst }) => pageCountMessage(worst, 'The PDF'),
};

function resolutionMessage({ count, pagesText, worst }: Parameters<MessageWriter>[0], kind: string, consequence: string, key: string): string {
  const m = worst.measured as { effective_ppi: number };
  const req = (worst.required as Record<string, number>)[key];
  return count === 1
    ? `An image on ${pagesText} has an effective resolution of ${m.effective_ppi} ppi (${kind} ${req} ppi); ${consequence}.`
    : `${count} image placements on ${pagesText} are below the ${kind} ${req} ppi (lowest ${m.effective_ppi} ppi on page ${worst.page}); ${consequence}.`;
}

const overhangOf = (o: Observation) => (o.measured as { overhang_mm: number }).overhang_mm;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
