/**
 * What the engines offer, as data: preflight profiles with their checks and
 * thresholds, validate profiles with their coverage, and the fix catalogue.
 * GET /profiles lists exactly this, and the engines read their settings from it,
 * so the listing can never promise something the engines do not do.
 *
 * Kept free of engine imports: the API's profiles handler loads it without
 * pulling pdf-lib, pdfjs or sharp into its bundle.
 */
import type { ValidateProfileCode } from '../../step-definitions/catalogue';

export interface CheckSpec {
  id: string;
  severity: 'error' | 'warn' | 'info' | 'off';
  description: string;
  thresholds?: Record<string, number | string | boolean>;
}

export interface PreflightProfileInfo {
  id: string;
  name: string;
  description: string;
  checks: CheckSpec[];
  defaultFixes: string[];
}

/**
 * Resolution thresholds follow the Ghent Workgroup's GWG 2015/2022 sheetfed
 * specifications for continuous-tone images (error below 150 ppi, warning below
 * 225 ppi) and for 1-bit line art (error below 550 ppi, warning below 800 ppi).
 * Bleed: 3 mm is the common requirement of European and North American printers
 * and the GWG value. Size tolerance: 1 mm, the usual cutting tolerance.
 */
const DEFAULT_CHECKS: CheckSpec[] = [
  { id: 'pdf.encrypted', severity: 'warn', description: 'The PDF is encrypted (it has restrictions or a password); print workflows may refuse or alter it.' },
  { id: 'fonts.not-embedded', severity: 'error', description: 'A font used for visible text is not embedded, so the printer would substitute another font.' },
  { id: 'boxes.trimbox-missing', severity: 'warn', description: 'A page has no TrimBox, so the finished size is not stated.' },
  { id: 'boxes.trimbox-outside-mediabox', severity: 'error', description: 'A page\'s TrimBox extends beyond its MediaBox.' },
  { id: 'boxes.bleedbox-outside-mediabox', severity: 'error', description: 'A page\'s BleedBox extends beyond its MediaBox.' },
  { id: 'bleed.insufficient', severity: 'warn', description: 'A page has less bleed around its TrimBox than required.', thresholds: { required_mm: 3 } },
  { id: 'pages.mixed-sizes', severity: 'info', description: 'The pages do not all have the same size.', thresholds: { tolerance_mm: 1 } },
  { id: 'document.javascript', severity: 'warn', description: 'The PDF contains JavaScript or launch actions; print workflows ignore them and some refuse the file.' },
  { id: 'images.resolution-low', severity: 'error', description: 'An image\'s effective resolution is below the minimum for print.', thresholds: { min_ppi: 150, min_ppi_1bit: 550 } },
  { id: 'images.resolution-marginal', severity: 'warn', description: 'An image\'s effective resolution is below the recommended value for print.', thresholds: { recommended_ppi: 225, recommended_ppi_1bit: 800 } },
  { id: 'image.resolution-unknown', severity: 'info', description: 'An image file states no resolution and no artwork size was ordered, so its print resolution cannot be judged.' },
  { id: 'image.rgb', severity: 'info', description: 'An image file is RGB; the printer converts it to CMYK, which can dull bright colours.' },
  { id: 'image.alpha', severity: 'info', description: 'An image file has transparency; transparent areas print as bare paper.' },
  { id: 'image.no-icc', severity: 'info', description: 'An image file has no embedded ICC profile, so its colours are interpreted with a generic profile.' },
  { id: 'artwork.size-mismatch', severity: 'error', description: 'The trim size differs from the ordered artwork size (context.artworkSize), in either orientation.', thresholds: { tolerance_mm: 1 } },
  { id: 'artwork.aspect-mismatch', severity: 'warn', description: 'An image file\'s proportions differ from the ordered artwork size, so it would be cropped or distorted.', thresholds: { tolerance_mm: 1 } },
  { id: 'document.page-count', severity: 'error', description: 'The number of pages is outside what was ordered (context.pageCount).' },
];

export const PREFLIGHT_PROFILES: readonly PreflightProfileInfo[] = [
  {
    id: 'default',
    name: 'Digital print (default)',
    description:
      'General checks for digital print: fonts embedded, page boxes and bleed, image resolution, JavaScript, page sizes, and the order context (artwork size, page count, bleed).',
    checks: DEFAULT_CHECKS,
    defaultFixes: ['boxes.normalize', 'actions.remove'],
  },
];

export function findPreflightProfile(id: string): PreflightProfileInfo | undefined {
  return PREFLIGHT_PROFILES.find((p) => p.id === id);
}

export interface ValidateProfileInfo {
  code: ValidateProfileCode;
  name: string;
  description: string;
  standard: string;
  coverage: 'partial' | 'complete';
}

const pdfa = (code: ValidateProfileCode, part: 1 | 2 | 3 | 4, level: string, year: string): ValidateProfileInfo => ({
  code,
  name: `PDF/A-${part}${level}`,
  description: `PDF/A-${part}${level} (ISO 19005-${part}${level ? `, level ${level.toUpperCase()}` : ''}). Proofline checks a subset of its requirements, so it reports failures it finds but never confirms compliance yet.`,
  standard: `ISO 19005-${part}:${year}`,
  coverage: 'partial',
});

export const VALIDATE_PROFILES: readonly ValidateProfileInfo[] = [
  {
    code: 'auto',
    name: 'Claimed conformance',
    description: 'Validates against the PDF/A and/or PDF/UA conformance the file claims in its XMP metadata.',
    standard: 'As claimed by the file',
    coverage: 'partial',
  },
  pdfa('1a', 1, 'a', '2005'),
  pdfa('1b', 1, 'b', '2005'),
  pdfa('2a', 2, 'a', '2011'),
  pdfa('2b', 2, 'b', '2011'),
  pdfa('2u', 2, 'u', '2011'),
  pdfa('3a', 3, 'a', '2012'),
  pdfa('3b', 3, 'b', '2012'),
  pdfa('3u', 3, 'u', '2012'),
  pdfa('4', 4, '', '2020'),
  pdfa('4e', 4, 'e', '2020'),
  pdfa('4f', 4, 'f', '2020'),
  {
    code: 'ua1',
    name: 'PDF/UA-1',
    description: 'PDF/UA-1 (ISO 14289-1) accessibility. Proofline checks a subset of its requirements, so it reports failures it finds but never confirms compliance yet.',
    standard: 'ISO 14289-1:2014',
    coverage: 'partial',
  },
  {
    code: 'ua2',
    name: 'PDF/UA-2',
    description: 'PDF/UA-2 (ISO 14289-2) accessibility. Proofline checks a subset of its requirements, so it reports failures it finds but never confirms compliance yet.',
    standard: 'ISO 14289-2:2024',
    coverage: 'partial',
  },
];

export interface FixInfo {
  id: string;
  name: string;
  description: string;
  /** Check ids whose findings this fix can resolve. */
  resolves: string[];
}

export const FIXES: readonly FixInfo[] = [
  {
    id: 'boxes.normalize',
    name: 'Normalise page boxes',
    description:
      'Adds a missing TrimBox (from the ordered artwork size centred on the page, else the CropBox, ArtBox or MediaBox), sets the BleedBox to the TrimBox grown by the ordered bleed (or keeps it) within the MediaBox, and sets the CropBox to the MediaBox.',
    resolves: ['boxes.trimbox-missing', 'boxes.bleedbox-outside-mediabox', 'bleed.insufficient'],
  },
  {
    id: 'actions.remove',
    name: 'Remove JavaScript and launch actions',
    description:
      'Removes document JavaScript, open actions and additional actions that run JavaScript or launch programs, and such actions on annotations, form fields and bookmarks.',
    resolves: ['document.javascript'],
  },
];

export function findFix(id: string): FixInfo | undefined {
  return FIXES.find((f) => f.id === id);
}
