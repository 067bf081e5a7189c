/**
 * Transparency checks: that transparency is used at all (the printer flattens
 * it), and the colour space transparency groups blend in — an RGB or Lab
 * blending space in a CMYK job changes colours where objects overlap.
 */
import type { TransparencyUse } from '../core/interpret/types';
import type { MessageWriter, Observation } from './findings';
import type { PdfCheckId } from './check-catalogue';
import type { InventoryPage } from './inventory-page';
import type { PreflightSettings } from './settings';
import { colourModel, listText, shortList } from './wording';

const KIND_TEXT: Record<TransparencyUse['kind'], string> = {
  group: 'transparency groups',
  'soft-mask': 'soft masks',
  alpha: 'opacity below 100 %',
  'blend-mode': 'blend modes',
  'image-soft-mask': 'images with transparent areas',
};

export function checkTransparency(pages: InventoryPage[], settings: PreflightSettings): Observation<PdfCheckId>[] {
  const out: Observation<PdfCheckId>[] = [];
  const on = (id: PdfCheckId) => settings.severity(id) !== 'off';
  for (const { page, inventory } of pages) {
    const uses = inventory.transparency;
    if (uses.length === 0) continue;
    if (on('transparency.group-colour-space')) {
      for (const g of uses) {
        const cs = g.kind === 'group' ? g.groupColourSpace : null;
        if (!cs) continue;
        const model = colourModel(cs);
        if (model === 'device-rgb' || model === 'icc-rgb' || model === 'lab') {
          out.push({ checkId: 'transparency.group-colour-space', page, bbox: g.bbox, measured: { colourSpace: cs.label }, required: 'CMYK' });
        }
      }
    }
    // A page group alone (no soft mask, alpha or blend mode) blends nothing, but is how
    // applications mark a page that has transparency; it still counts as use.
    if (on('transparency.used')) {
      const kinds = [...new Set(uses.map((u) => u.kind))];
      const located = uses.find((u) => u.bbox !== null);
      out.push({ checkId: 'transparency.used', page, bbox: located?.bbox ?? null, measured: { kinds } });
    }
  }
  return out;
}

export const TRANSPARENCY_MESSAGES = {
  'transparency.group-colour-space': ({ observations, count, pagesText }) => {
    const spaces = [...new Set(observations.map((o) => (o.measured as { colourSpace: string }).colourSpace))];
    return `${count === 1 ? 'A transparency group' : `${count} transparency groups`} on ${pagesText} ${count === 1 ? 'blends' : 'blend'} in ${shortList(spaces, 3)} instead of CMYK; where transparent objects overlap, colours can shift when the printer flattens them. Set the document's transparency blend space to CMYK.`;
  },
  'transparency.used': ({ observations, pagesText }) => {
    const kinds = [...new Set(observations.flatMap((o) => (o.measured as { kinds: TransparencyUse['kind'][] }).kinds))];
    return `Transparency (${listText(kinds.map((k) => KIND_TEXT[k]))}) is used on ${pagesText}; the printer flattens it, which is usually fine — check the proof where transparent objects overlap.`;
  },
} satisfies Partial<Record<PdfCheckId, MessageWriter>>;
