/**
 * Each preflight check in the vocabulary of the original hosted service's
 * report (docs/api.md §11 rule 5): the section it belongs to, what it judges,
 * which kind of object it needs in the file to apply at all, and which of its
 * observation's numbers are the measured and required values, with their unit.
 * Typed by CheckId, so a new check without an entry here does not compile.
 */
import type { CheckId } from './check-catalogue';
import { leastBleedMm } from './checks-boxes';
import type { EvaluationSection, EvaluationUnit, PageSection } from './report';

/** Kinds of object some checks judge; a file with none of a check's kind is reported as skipped for it. */
export type JudgedKind = 'images' | 'images-with-resolution' | 'text' | 'annotations' | 'several-pages' | 'trimmed-pages' | 'transparency';

export interface UnitValue {
  unit: EvaluationUnit;
  value: number;
}

export interface CheckInReference {
  section: EvaluationSection;
  target: 'document' | 'pages' | 'fonts' | 'text' | 'lines' | 'images' | 'objects' | 'annotations';
  judges?: JudgedKind;
  /** The worst observation's values (Finding.measured / required, as the check wrote them). */
  values?: (measured: unknown, required: unknown) => { measured?: UnitValue; required?: UnitValue };
  /** What the check measures on one page, where the page section holds the very fact it judged. */
  measuredOnPage?: (page: PageSection) => UnitValue | undefined;
}

/** A number field of an observation's value object, or undefined. */
function field(value: unknown, key: string): number | undefined {
  const v = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

const unitValue = (unit: EvaluationUnit, value: number | undefined): UnitValue | undefined => (value === undefined ? undefined : { unit, value });

/** Values whose measured and required keys name the same quantity in the same unit. */
const pair = (unit: EvaluationUnit, measuredKey: string, requiredKey: string): CheckInReference['values'] => (m, r) => ({
  measured: unitValue(unit, field(m, measuredKey)),
  required: unitValue(unit, field(r, requiredKey)),
});

/** bleed.insufficient measures every side; the reference's one number is the least of them, as its message says. */
function leastBleed(m: unknown, r: unknown): { measured?: UnitValue; required?: UnitValue } {
  const sides = m && typeof m === 'object' ? (m as { bleed_mm?: unknown }).bleed_mm : undefined;
  const [top, right, bottom, left] = ['top', 'right', 'bottom', 'left'].map((side) => field(sides, side));
  const measured = top !== undefined && right !== undefined && bottom !== undefined && left !== undefined ? leastBleedMm({ top, right, bottom, left }) : undefined;
  return { measured: unitValue('mm', measured), required: unitValue('mm', field(r, 'required_mm')) };
}

/** document.page-count requires a range; the required count is the bound the file missed. */
function pageCount(m: unknown, r: unknown): { measured?: UnitValue; required?: UnitValue } {
  const pages = field(m, 'pages');
  const min = field(r, 'min');
  const bound = pages !== undefined && min !== undefined && pages < min ? min : field(r, 'max');
  return { measured: unitValue('count', pages), required: unitValue('count', bound) };
}

const DOCUMENT: CheckInReference = { section: 'document', target: 'document' };
const PAGES: CheckInReference = { section: 'geometry', target: 'pages' };
const COLOUR: CheckInReference = { section: 'colour', target: 'objects' };
const IMAGE_FILE: CheckInReference = { section: 'images', target: 'images' };
const RESOLUTION_LOW = pair('dpi', 'effective_ppi', 'min_ppi');
const OVERHANG = pair('mm', 'overhang_mm', 'overhang_mm');
const TEXT_SIZE = pair('pt', 'size_pt', 'min_size_pt');

export const CHECKS_IN_REFERENCE: Record<CheckId, CheckInReference> = {
  'pdf.encrypted': DOCUMENT,
  'document.javascript': DOCUMENT,
  'document.page-count': { section: 'order', target: 'document', values: pageCount },
  'document.embedded-files': DOCUMENT,
  'document.layers': DOCUMENT,
  'document.forms': DOCUMENT,
  'document.output-intent': DOCUMENT,
  'document.repaired': DOCUMENT,
  'document.analysis-incomplete': { section: 'document', target: 'pages' },
  'annotations.in-trim': { section: 'document', target: 'annotations', judges: 'annotations' },
  // pages.mixed-sizes requires "one page size" and measures the sizes it found.
  'pages.mixed-sizes': { ...PAGES, judges: 'several-pages', values: (m) => ({ measured: unitValue('count', Array.isArray(m) ? m.length : undefined), required: { unit: 'count', value: 1 } }) },
  'pages.empty': PAGES,
  'boxes.trimbox-missing': PAGES,
  'boxes.trimbox-outside-mediabox': { ...PAGES, values: OVERHANG },
  'boxes.bleedbox-outside-mediabox': { ...PAGES, values: OVERHANG },
  'boxes.inconsistent': PAGES,
  'bleed.insufficient': { ...PAGES, judges: 'trimmed-pages', values: leastBleed, measuredOnPage: (p) => unitValue('mm', p.bleedMm ? leastBleedMm(p.bleedMm) : undefined) },
  // Width and height against the ordered size: two numbers, where the reference has room for one.
  'artwork.size-mismatch': { section: 'order', target: 'pages' },
  'artwork.aspect-mismatch': { section: 'order', target: 'images', values: pair('mm', 'excess_mm', 'tolerance_mm') },
  'safety.live-content': { section: 'order', target: 'objects', values: pair('mm', 'distance_mm', 'min_mm') },
  'fonts.not-embedded': { section: 'fonts', target: 'fonts', judges: 'text' },
  'fonts.type3': { section: 'fonts', target: 'fonts', judges: 'text' },
  'text.small': { section: 'text', target: 'text', judges: 'text', values: TEXT_SIZE },
  'text.rich-black': { section: 'text', target: 'text', judges: 'text', values: TEXT_SIZE },
  // A line's width is drawing geometry; the reference has no section for vector art.
  'lines.thin': { section: 'geometry', target: 'lines', values: pair('pt', 'width_pt', 'min_width_pt') },
  'colour.rgb': COLOUR,
  'colour.icc-rgb': COLOUR,
  'colour.lab': COLOUR,
  'colour.spot': COLOUR,
  'colour.registration': COLOUR,
  // The page's maxTacPercent is the whole-percent total the check compares with its limit.
  'colour.tac': { ...COLOUR, values: pair('percent', 'tac_percent', 'max_percent'), measuredOnPage: (p) => unitValue('percent', p.maxTacPercent ?? undefined) },
  'overprint.white': COLOUR,
  'transparency.group-colour-space': { section: 'transparency', target: 'objects', judges: 'transparency' },
  'transparency.used': { section: 'transparency', target: 'pages' },
  'images.resolution-low': { section: 'images', target: 'images', judges: 'images-with-resolution', values: RESOLUTION_LOW },
  'images.resolution-marginal': { section: 'images', target: 'images', judges: 'images-with-resolution', values: pair('dpi', 'effective_ppi', 'recommended_ppi') },
  'images.16-bit': { section: 'images', target: 'images', judges: 'images' },
  'image.resolution-unknown': IMAGE_FILE,
  'image.rgb': IMAGE_FILE,
  'image.alpha': IMAGE_FILE,
  'image.no-icc': IMAGE_FILE,
};
