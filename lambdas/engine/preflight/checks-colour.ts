/**
 * Colour checks: RGB (uncalibrated and ICC-based), Lab, spot colours, the
 * registration colour, total ink and white overprint, judged on what the
 * content interpreter found per page and object kind.
 */
import type { ColourUse, ObjectKind } from '../core/interpret/types';
import type { Rect } from '../core/page-boxes';
import { plural, type MessageWriter, type Observation } from './findings';
import type { PdfCheckId } from './check-catalogue';
import { overlaps, type InventoryPage } from './inventory-page';
import type { PreflightSettings } from './settings';
import { cap, colourModel, kindsText, quoted, shortList, type ColourModel } from './wording';
import { spotUseConverted, usesColorant } from '../criteria/spot-conversion';
import { whiteKnockoutReaches } from '../criteria/white-overprint';

/** Colorant names that are not spot inks. */
const NOT_SPOT = new Set(['All', 'None', 'Cyan', 'Magenta', 'Yellow', 'Black']);

export function checkColour(pages: InventoryPage[], settings: PreflightSettings): Observation<PdfCheckId>[] {
  const out: Observation<PdfCheckId>[] = [];
  const on = (id: PdfCheckId) => settings.severity(id) !== 'off';
  const iccRgb = settings.thresholds('colour.icc-rgb');

  for (const { page, trim, inventory } of pages) {
    const byModel = (model: ColourModel, skipImages = false) =>
      inventory.colours.filter((c) => colourModel(c.space) === model && !(skipImages && c.kind === 'image'));
    if (on('colour.rgb')) out.push(...spaceUses('colour.rgb', page, byModel('device-rgb')));
    if (on('colour.icc-rgb')) out.push(...spaceUses('colour.icc-rgb', page, byModel('icc-rgb', iccRgb?.allow_images === true)));
    if (on('colour.lab')) out.push(...spaceUses('colour.lab', page, byModel('lab')));

    if (on('colour.spot')) {
      for (const name of inventory.spotColours) {
        if (NOT_SPOT.has(name)) continue;
        const uses = inventory.colours.filter((c) => usesColorant(c.space, name));
        // Offered only where color.spot-to-process converts every use of the spot on the page.
        const fixable = uses.length > 0 && uses.every(spotUseConverted);
        out.push({ checkId: 'colour.spot', page, subject: name, bbox: unionOf(uses), measured: { spot: name, kinds: kindsOf(uses) }, required: 'process colours only', fixable });
      }
    }

    if (on('colour.registration') && inventory.registration) {
      // Registration marks outside the trim are what the colour is for; only the finished page matters.
      const inside = inventory.colours.filter((c) => c.space.colorants?.includes('All') && overlaps(c.union, trim));
      if (inside.length > 0) out.push({ checkId: 'colour.registration', page, bbox: unionOf(inside), measured: { kinds: kindsOf(inside) }, required: 'no registration colour on the page' });
    }

    const tac = settings.thresholds('colour.tac');
    // Judged on whole percent, as it is reported: 320.4 % is within a 320 % limit.
    const measuredTac = inventory.maxTacPercent === null ? null : Math.round(inventory.maxTacPercent);
    if (tac && measuredTac !== null && measuredTac > Number(tac.max_percent)) {
      const densest = inventory.paintedAreas.reduce<(typeof inventory.paintedAreas)[number] | null>(
        (best, a) => ((a.paint.tacPercent ?? -1) > (best?.paint.tacPercent ?? -1) ? a : best),
        null,
      );
      out.push({ checkId: 'colour.tac', page, bbox: densest?.bbox ?? null, measured: { tac_percent: measuredTac, kind: densest?.kind ?? null }, required: { max_percent: Number(tac.max_percent) }, rank: -measuredTac });
    }

    if (on('overprint.white')) {
      for (const a of inventory.paintedAreas) {
        if (!a.paint.white || !a.state.overprint) continue;
        out.push({ checkId: 'overprint.white', page, bbox: a.bbox, measured: { kind: a.kind, overprint: true }, required: { overprint: false }, fixable: whiteKnockoutReaches(a.kind, a.within) });
      }
    }
  }
  return out;
}

function spaceUses(checkId: PdfCheckId, page: number, uses: ColourUse[]): Observation<PdfCheckId>[] {
  return uses.map((c) => ({ checkId, page, bbox: c.union, measured: { colourSpace: c.space.label, kind: c.kind, objects: c.count } }));
}

function unionOf(uses: ColourUse[]): Rect | null {
  if (uses.length === 0) return null;
  return uses.slice(1).reduce<Rect>((r, c) => [Math.min(r[0], c.union[0]), Math.min(r[1], c.union[1]), Math.max(r[2], c.union[2]), Math.max(r[3], c.union[3])], [...uses[0]!.union]);
}

const kindsOf = (uses: ColourUse[]): ObjectKind[] => [...new Set(uses.map((u) => u.kind))];

/** "used in text and images on pages 1–3" from observations carrying a kind (or kinds). */
function usedIn(observations: Observation[], pagesText: string): string {
  const kinds = observations.flatMap((o) => {
    const m = o.measured as { kind?: ObjectKind; kinds?: ObjectKind[] };
    return m.kinds ?? (m.kind ? [m.kind] : []);
  });
  return kinds.length ? `used for ${kindsText(kinds)} on ${pagesText}` : `used on ${pagesText}`;
}

const spacesOf = (observations: Observation[]): string[] => [...new Set(observations.map((o) => (o.measured as { colourSpace: string }).colourSpace))];

export const COLOUR_MESSAGES = {
  'colour.rgb': ({ observations, pagesText }) =>
    `Uncalibrated RGB colour (DeviceRGB) is ${usedIn(observations, pagesText)}; the printer converts it to its inks as it sees fit, so the printed colours may differ from the screen. Convert to CMYK for this printing condition, or use ICC-based RGB where the product allows it.`,
  'colour.icc-rgb': ({ observations, pagesText }) =>
    `ICC-based RGB colour (${shortList(spacesOf(observations), 3)}) is ${usedIn(observations, pagesText)}; this product prints in CMYK, so it would be converted and bright colours may print duller. Convert to CMYK for this printing condition.`,
  'colour.lab': ({ observations, pagesText }) =>
    `Lab colour is ${usedIn(observations, pagesText)}; it would be converted to the printing inks and may shift. Convert to CMYK for this printing condition.`,
  'colour.spot': ({ subject, observations, pagesText }) =>
    `The spot colour ${quoted(subject ?? '')} is ${usedIn(observations, pagesText)}; it needs its own printing plate or is converted to CMYK, which can change its colour. Convert it to CMYK unless the order includes this ink.`,
  'colour.registration': ({ observations, pagesText }) =>
    `The registration colour (Separation All, which prints on every plate) is ${usedIn(observations, pagesText)} inside the finished page; anything in it prints as a dark mix of all inks. Use it only for printer marks outside the trim.`,
  'colour.tac': ({ count, pagesText, worst }) => {
    const m = worst.measured as { tac_percent: number };
    const max = (worst.required as { max_percent: number }).max_percent;
    return count === 1
      ? `Total ink reaches ${m.tac_percent} % on ${pagesText}, above the ${max} % this printing condition allows; the ink may not dry and can smear or set off.`
      : `Total ink exceeds the ${max} % this printing condition allows on ${plural(count, 'page')} (${pagesText}; up to ${m.tac_percent} % on page ${worst.page}); the ink may not dry and can smear or set off.`;
  },
  'overprint.white': ({ observations, count, pagesText }) => {
    const kinds = kindsText(observations.map((o) => (o.measured as { kind: ObjectKind }).kind));
    return `${cap(count === 1 ? 'a white object' : `${count} white objects`)} (${kinds}) on ${pagesText} ${count === 1 ? 'is' : 'are'} set to overprint, so ${count === 1 ? 'it disappears' : 'they disappear'} in print. Turn overprint off for white objects.`;
  },
} satisfies Partial<Record<PdfCheckId, MessageWriter>>;
