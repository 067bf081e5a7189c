/**
 * Every threshold a profile may set, as data: its type, unit, allowed range and
 * the sentence GET /profiles shows for it. An account's own profiles
 * (POST /profiles) are validated against this table (the request schema is
 * derived from it, api/schemas/profile-body.ts), so a value the engine cannot
 * judge with never reaches it.
 *
 * Typed against CheckThresholds: a threshold without a spec here, or a spec of
 * the wrong type, does not compile. Thresholds the order context supplies
 * (artwork size, page count, safety margin) are not in CheckThresholds and
 * cannot be set in a profile: they describe one order, not a shop's standard.
 *
 * The ranges are what a print workflow can mean, not what GWG recommends: wide
 * enough for any shop's standard, narrow enough to catch a typing slip (a TAC of
 * 3000 %, a 30 mm line).
 *
 * Import-free apart from types (see check-catalogue.ts).
 */
import type { CheckThresholds } from './check-catalogue';

export type ThresholdUnit = 'mm' | 'pt' | 'ppi' | 'percent' | 'px' | 'boolean';

export interface NumberThresholdSpec {
  type: 'number';
  unit: Exclude<ThresholdUnit, 'boolean'>;
  /** Inclusive bounds. */
  min: number;
  max: number;
  /** Whole numbers only (resolutions and pixel sizes are judged on whole values). */
  integer: boolean;
  description: string;
}

export interface BooleanThresholdSpec {
  type: 'boolean';
  unit: 'boolean';
  description: string;
}

export type ThresholdSpec = NumberThresholdSpec | BooleanThresholdSpec;

/** For each check with thresholds, a spec per threshold, of the threshold's own type. */
export type ThresholdSpecTable = {
  [Id in keyof CheckThresholds]: {
    [Name in keyof CheckThresholds[Id]]-?: CheckThresholds[Id][Name] extends boolean ? BooleanThresholdSpec : NumberThresholdSpec;
  };
};

const mm = (min: number, max: number, description: string): NumberThresholdSpec => ({ type: 'number', unit: 'mm', min, max, integer: false, description });
const pt = (min: number, max: number, description: string): NumberThresholdSpec => ({ type: 'number', unit: 'pt', min, max, integer: false, description });
const ppi = (min: number, max: number, description: string): NumberThresholdSpec => ({ type: 'number', unit: 'ppi', min, max, integer: true, description });
const flag = (description: string): BooleanThresholdSpec => ({ type: 'boolean', unit: 'boolean', description });

const IGNORE_MAX_PX: NumberThresholdSpec = {
  type: 'number',
  unit: 'px',
  min: 0,
  max: 1024,
  integer: true,
  description: 'Images this many pixels wide or high, or fewer, are exempt (GWG: 16).',
};

export const THRESHOLD_SPECS: ThresholdSpecTable = {
  'pages.mixed-sizes': { tolerance_mm: mm(0, 50, 'Pages whose sizes differ by no more than this count as the same size.') },
  'artwork.size-mismatch': { tolerance_mm: mm(0, 50, 'How far the trim size may differ from the ordered artwork size.') },
  'artwork.aspect-mismatch': { tolerance_mm: mm(0, 50, "How far an image file's proportions, scaled to the ordered width, may differ from the ordered height.") },
  'document.output-intent': { required: flag('Whether every PDF must have an output intent, not only one that claims PDF/X.') },
  'bleed.insufficient': { required_mm: mm(0, 20, 'The bleed required on each side of the TrimBox (the order context may narrow it per order).') },
  'text.small': { min_size_pt: pt(0, 72, 'Text with several inks, or white, below this size is flagged.') },
  'text.rich-black': { min_size_pt: pt(0, 72, 'Black text of several inks below this size is flagged.') },
  'lines.thin': { min_width_pt: pt(0, 10, 'Lines thinner than this are flagged.') },
  'colour.icc-rgb': { allow_images: flag('Whether images may be ICC-based RGB (only other objects are then flagged).') },
  'colour.tac': { max_percent: { type: 'number', unit: 'percent', min: 100, max: 400, integer: false, description: 'The most total ink (the sum of all process inks) allowed.' } },
  'images.resolution-low': {
    min_ppi: ppi(1, 2400, 'Images below this effective resolution are flagged.'),
    min_ppi_1bit: ppi(1, 4800, 'The same for 1-bit (line art) images.'),
    ignore_max_px: IGNORE_MAX_PX,
  },
  'images.resolution-marginal': {
    recommended_ppi: ppi(1, 2400, 'Images below this effective resolution are noted as marginal.'),
    recommended_ppi_1bit: ppi(1, 4800, 'The same for 1-bit (line art) images.'),
    ignore_max_px: IGNORE_MAX_PX,
  },
};

/** The threshold specs of a check, or undefined for a check without thresholds. */
export function thresholdSpecsOf(checkId: string): Readonly<Record<string, ThresholdSpec>> | undefined {
  return Object.hasOwn(THRESHOLD_SPECS, checkId) ? (THRESHOLD_SPECS as unknown as Record<string, Record<string, ThresholdSpec>>)[checkId] : undefined;
}
