/**
 * Fonts, text and line checks: unembedded and Type 3 fonts, small text that
 * needs several inks to print (or is white), small rich-black text, and thin
 * lines — sizes and widths as they land on the page (after the CTM and UserUnit).
 */
import type { PDFDict } from '@cantoo/pdf-lib';
import type { PaintSummary, TextGroup } from '../core/interpret/types';
import { paintsFill, paintsStroke } from '../core/interpret/text-show';
import type { Rect } from '../core/page-boxes';
import { num, plural, type MessageWriter, type Observation } from './findings';
import type { PdfCheckId } from './check-catalogue';
import type { InventoryPage } from './inventory-page';
import type { FontSection } from './report';
import type { PreflightSettings } from './settings';
import { colourModel } from './wording';
import { isSmallText, judgedTextSize, richBlackFixable, richBlackSides } from '../criteria/rich-black-text';

export interface FontFacts extends FontSection {
  /** Shows text in a visible rendering mode somewhere. */
  visible: boolean;
  /** The font dictionary, to find where its text is; null when not known. */
  dict: PDFDict | null;
}

export function checkText(pages: InventoryPage[], fonts: FontFacts[], settings: PreflightSettings): Observation<PdfCheckId>[] {
  const out: Observation<PdfCheckId>[] = [];
  const on = (id: PdfCheckId) => settings.severity(id) !== 'off';
  const textBox = textBoxes(pages);

  for (const f of fonts) {
    const notEmbedded = on('fonts.not-embedded') && !f.embedded && f.visible;
    const type3 = on('fonts.type3') && f.type === 'Type3';
    for (const page of f.usedOnPages) {
      const bbox = (f.dict && textBox.get(page)?.get(f.dict)) ?? null;
      if (notEmbedded) out.push({ checkId: 'fonts.not-embedded', page, bbox, subject: `${f.name} (${f.type})`, measured: { font: f.name, embedded: false }, required: { embedded: true } });
      if (type3) out.push({ checkId: 'fonts.type3', page, bbox, subject: f.name, measured: { font: f.name, type: 'Type3' }, required: 'an outline font' });
    }
  }

  const small = settings.thresholds('text.small');
  const richBlack = settings.thresholds('text.rich-black');
  const minSmall = Number(small?.min_size_pt ?? 0);
  const minRich = Number(richBlack?.min_size_pt ?? 0);
  for (const { page, inventory } of pages) {
    for (const t of inventory.text) {
      const paints = paintsOf(t);
      if (paints.length === 0) continue;
      const size = judgedTextSize(t.sizePt);
      const measured = (p: PaintSummary) => ({ size_pt: size, font: t.fontName, colorants: inkCount(p), white: p.white, texts: t.count });
      const sides = richBlackSides(t.painting, t.fill, t.stroke);
      const rich = sides.fill ? t.fill : sides.stroke ? t.stroke : null;
      if (richBlack && rich && isSmallText(size, minRich)) {
        // The fix can only resolve the group when it can repaint every rich-black side of it.
        const fixable = (!sides.fill || richBlackFixable(t.fill!, t.within)) && (!sides.stroke || richBlackFixable(t.stroke!, t.within));
        out.push({ checkId: 'text.rich-black', page, bbox: t.bbox, measured: measured(rich), required: { min_size_pt: minRich }, rank: size, fixable });
        // Rich black is judged here; text.small would only repeat it.
        continue;
      }
      const bad = paints.find((p) => p.white || (inkCount(p) ?? 1) > 1);
      if (small && bad && isSmallText(size, minSmall)) {
        out.push({ checkId: 'text.small', page, bbox: t.bbox, measured: measured(bad), required: { min_size_pt: minSmall }, rank: size });
      }
    }
  }

  const thin = settings.thresholds('lines.thin');
  if (thin) {
    const min = Number(thin.min_width_pt);
    for (const { page, inventory } of pages) {
      for (const s of inventory.strokes) {
        if (s.widthPt >= min - 1e-6) continue;
        const width = Math.round(s.widthPt * 100) / 100;
        out.push({ checkId: 'lines.thin', page, bbox: s.bbox, measured: { width_pt: width, lines: s.count }, required: { min_width_pt: min }, rank: width });
      }
    }
  }
  return out;
}

function paintsOf(t: TextGroup): PaintSummary[] {
  const fill = paintsFill(t.painting) ? t.fill : null;
  const stroke = paintsStroke(t.painting) ? t.stroke : null;
  return [fill, stroke].filter((p): p is PaintSummary => p !== null);
}

/**
 * Inks a paint needs. RGB and Lab have no ink terms yet, but any colour in them
 * but pure white separates into several inks; patterns are left unjudged.
 */
function inkCount(p: PaintSummary): number | null {
  if (p.colorantCount !== null) return p.colorantCount;
  if (p.pattern) return null;
  const model = colourModel(p.space);
  return model === 'device-rgb' || model === 'icc-rgb' || model === 'lab' ? 3 : null;
}

/** The first text box of each font per page, to point at where an unembedded font is used. */
function textBoxes(pages: InventoryPage[]): Map<number, Map<PDFDict, Rect>> {
  const out = new Map<number, Map<PDFDict, Rect>>();
  for (const { page, inventory } of pages) {
    const byFont = new Map<PDFDict, Rect>();
    for (const t of inventory.text) if (t.font && !byFont.has(t.font)) byFont.set(t.font, t.bbox);
    out.set(page, byFont);
  }
  return out;
}

interface TextMeasured {
  size_pt: number;
  font: string;
  colorants: number | null;
  white: boolean;
}

export const TEXT_MESSAGES = {
  'fonts.not-embedded': ({ subject, pagesText }) =>
    `The font ${subject} is not embedded (used on ${pagesText}); the printer would substitute another font and the text would look different. Embed all fonts when exporting the PDF.`,
  'fonts.type3': ({ subject, pagesText }) =>
    `The Type 3 font ${subject} is used on ${pagesText}; its letters are drawings rather than an outline font, and some workflows render them poorly at small sizes.`,
  'text.small': ({ count, pagesText, worst }) => {
    const m = worst.measured as TextMeasured;
    const min = num((worst.required as { min_size_pt: number }).min_size_pt);
    const how = m.white ? 'in white' : `with ${m.colorants ?? 'several'} inks`;
    const where = count === 1 ? `on ${pagesText}` : `in ${plural(count, 'place')} on ${pagesText}`;
    return `Text smaller than ${min} pt is printed with several inks or in white ${where} (smallest: ${num(m.size_pt)} pt ${how}, font ${m.font}, page ${worst.page}); slight misregistration will make it look blurred or fringed. Use a single ink, such as 100 % black, for small text.`;
  },
  'text.rich-black': ({ count, pagesText, worst }) => {
    const m = worst.measured as TextMeasured;
    const min = num((worst.required as { min_size_pt: number }).min_size_pt);
    const where = count === 1 ? `on ${pagesText}` : `in ${plural(count, 'place')} on ${pagesText}`;
    return `Black text smaller than ${min} pt is built from several inks (rich black) ${where} (smallest: ${num(m.size_pt)} pt, font ${m.font}, page ${worst.page}); slight misregistration gives it coloured fringes. Use 100 % black (K only) for small text.`;
  },
  'lines.thin': ({ observations, pagesText, worst }) => {
    const m = worst.measured as { width_pt: number };
    const min = (worst.required as { min_width_pt: number }).min_width_pt;
    const lines = observations.reduce((n, o) => n + ((o.measured as { lines: number }).lines ?? 1), 0);
    const width = m.width_pt === 0 ? '0 pt (a hairline: the thinnest line the output device can draw)' : `${m.width_pt} pt`;
    return lines === 1
      ? `A line on ${pagesText} is ${width} wide, thinner than ${min} pt; it may break up or disappear in print. Make lines at least ${min} pt wide.`
      : `${lines} lines thinner than ${min} pt are drawn on ${pagesText} (thinnest ${width}, page ${worst.page}); they may break up or disappear in print. Make lines at least ${min} pt wide.`;
  },
} satisfies Partial<Record<PdfCheckId, MessageWriter>>;
