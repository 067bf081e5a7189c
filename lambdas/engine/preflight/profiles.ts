/**
 * The preflight profiles: for each, a severity and thresholds per check.
 *
 * The print profiles follow the Ghent Workgroup's GWG 2022 specification where
 * it sets a value (marked GWG below): image resolution (error at or below 149
 * ppi, warning at or below 224 for sheetfed; 1-bit 549/799), thin lines under
 * 0.25 pt, small multi-ink or white text, total area coverage per printing
 * condition, no RGB/Lab/spot in the CMYK variants, embedded fonts, TrimBox and
 * consistent boxes, CMYK transparency blending, no white overprint, and images
 * of 16 px or less exempt from resolution checks. Values marked "ours" are
 * Proofline's choice where GWG sets none or where the profile is not a GWG one.
 *
 * Threshold conventions: `min_ppi` 150 means an image fails below 150 ppi (so
 * 149 fails and 150 passes, judged on whole ppi like pdfimages reports them);
 * `min_size_pt` / `min_width_pt` flag anything below the value; `max_percent`
 * flags anything above it.
 *
 * Import-free apart from types (see check-catalogue.ts).
 */
import { CHECK_DESCRIPTIONS, type CheckId, type CheckSpec, type CheckThresholds } from './check-catalogue';

export interface PreflightProfileInfo {
  id: string;
  name: string;
  description: string;
  checks: CheckSpec[];
  defaultFixes: string[];
  /** An account's own profile (account-profile.ts): the built-in it was made from, and the version it was resolved from. */
  base?: string;
  version?: number;
}

type Severity = CheckSpec['severity'];
/** A check's severity in a profile and, for a check with thresholds, all of them (a check the profile turns off needs none). */
type Entry<Id extends CheckId> = Id extends keyof CheckThresholds ? readonly [Severity, CheckThresholds[Id]] | readonly ['off'] : readonly [Severity];
/** A profile's entry for every check: a check without a severity (or without its thresholds) in some profile does not compile. */
type Table = { [Id in CheckId]: Entry<Id> };

/** GWG: images of 16 px or less (either side) are exempt from resolution checks. */
const EXEMPT = { ignore_max_px: 16 };

/** Checks every profile has, judged the same way. */
const COMMON = {
  'document.javascript': ['warn'],
  'document.page-count': ['error'],
  'document.analysis-incomplete': ['warn'],
  'document.repaired': ['warn'],
  'pages.mixed-sizes': ['info', { tolerance_mm: 1 }],
  'pages.empty': ['warn'], // ours: an empty page is usually a mistake, rarely intended
  'fonts.not-embedded': ['error'],
  'fonts.type3': ['info'],
  'transparency.used': ['info'],
  // An ordered size is what the customer pays for; 1 mm is the usual cutting tolerance (ours).
  'artwork.size-mismatch': ['error', { tolerance_mm: 1 }],
  'artwork.aspect-mismatch': ['warn', { tolerance_mm: 1 }],
  'image.resolution-unknown': ['info'],
} satisfies Partial<Table>;

/** GWG sheetfed offset, CMYK only: the strictest print profile and the base of the others. */
const SHEETFED = {
  ...COMMON,
  'pdf.encrypted': ['warn'],
  'document.embedded-files': ['warn'], // ours: GWG relies on PDF/X, which tolerates but ignores them
  'document.layers': ['info'],
  'document.forms': ['warn'], // ours
  'document.output-intent': ['warn', { required: true }], // GWG files are PDF/X-4; warn (ours) so a plain PDF is still judged on content
  'annotations.in-trim': ['warn'], // ours
  'boxes.trimbox-missing': ['error'], // GWG: TrimBox present
  'boxes.trimbox-outside-mediabox': ['error'],
  'boxes.bleedbox-outside-mediabox': ['error'],
  'boxes.inconsistent': ['error'], // GWG: boxes consistent
  'bleed.insufficient': ['warn', { required_mm: 3 }], // 3 mm: GWG and common European/North American value
  'safety.live-content': ['warn'], // active only with context.safety
  'text.small': ['warn', { min_size_pt: 8 }], // GWG sheetfed
  'text.rich-black': ['warn', { min_size_pt: 12 }], // ours
  'lines.thin': ['warn', { min_width_pt: 0.25 }], // GWG
  'colour.rgb': ['error'], // GWG CMYK variant
  'colour.icc-rgb': ['error', { allow_images: false }], // GWG CMYK variant
  'colour.lab': ['error'], // GWG CMYK variant
  'colour.spot': ['error'], // GWG sheetfed CMYK: no spot colours
  'colour.registration': ['warn'], // ours
  // Ours: warn, not error — the estimate is the densest single object, not GWG's area-weighted measure.
  'colour.tac': ['warn', { max_percent: 320 }], // GWG sheetfed: 320 %
  'overprint.white': ['error'], // GWG
  'transparency.group-colour-space': ['error'], // GWG: blend colour space CMYK
  'images.resolution-low': ['error', { min_ppi: 150, min_ppi_1bit: 550, ...EXEMPT }], // GWG 149 / 549
  'images.resolution-marginal': ['warn', { recommended_ppi: 225, recommended_ppi_1bit: 800, ...EXEMPT }], // GWG 224 / 799
  'images.16-bit': ['info'], // ours
  'image.rgb': ['error'],
  'image.alpha': ['warn'], // ours
  'image.no-icc': ['info'],
} satisfies Table;

/** GWG heatset web offset: as sheetfed, with the web condition's ink limit and text size. */
const WEB = {
  ...SHEETFED,
  'text.small': ['warn', { min_size_pt: 9 }], // GWG web
  'colour.tac': ['warn', { max_percent: 305 }], // GWG web: 305 %
} satisfies Table;

/** GWG newspaper (coldset): lower ink limit, larger minimum text, lower image resolution. */
const NEWSPAPER = {
  ...SHEETFED,
  'text.small': ['warn', { min_size_pt: 10 }], // GWG newspaper
  'colour.tac': ['warn', { max_percent: 245 }], // GWG newspaper: 245 %
  'images.resolution-low': ['error', { min_ppi: 100, min_ppi_1bit: 550, ...EXEMPT }], // GWG 99; 1-bit as sheetfed (ours)
  'images.resolution-marginal': ['warn', { recommended_ppi: 150, recommended_ppi_1bit: 800, ...EXEMPT }], // GWG 149
} satisfies Table;

/** GWG digital print: ICC-based RGB images allowed, lower resolutions, spot colours tolerated. */
const DIGITAL = {
  ...SHEETFED,
  'boxes.trimbox-missing': ['warn'], // ours: digital presses usually print on the final size
  'text.small': ['warn', { min_size_pt: 6 }], // ours: one-pass digital presses register well
  'text.rich-black': ['info', { min_size_pt: 12 }], // ours
  'colour.rgb': ['error'], // GWG: DeviceRGB still not allowed
  'colour.icc-rgb': ['warn', { allow_images: true }], // GWG: ICC-based RGB allowed for images
  'colour.lab': ['warn'], // ours
  'colour.spot': ['warn'], // GWG digital: converted, so a warning
  'colour.tac': ['off', { max_percent: 400 }], // ours: toner presses limit ink themselves
  'transparency.group-colour-space': ['warn'], // ours: RGB allowed, so only a warning
  'images.resolution-low': ['error', { min_ppi: 96, min_ppi_1bit: 350, ...EXEMPT }], // GWG 95 / 349
  'images.resolution-marginal': ['warn', { recommended_ppi: 150, recommended_ppi_1bit: 600, ...EXEMPT }], // GWG 149 / 599
  'image.rgb': ['info'],
  'image.alpha': ['info'],
} satisfies Table;

/**
 * The default: digital print without the GWG strictness. As the digital
 * profile (3 mm bleed, a missing TrimBox warns), but image resolution is
 * judged at 150 ppi (225 recommended), inconsistent boxes warn, and RGB, Lab,
 * attachments and form fields are only noted (the printer converts or ignores
 * them).
 */
const DEFAULT = {
  ...DIGITAL,
  'pdf.encrypted': ['warn'],
  'document.embedded-files': ['info'],
  'document.forms': ['info'],
  'document.output-intent': ['warn', { required: false }],
  'boxes.inconsistent': ['warn'],
  'colour.rgb': ['info'],
  'colour.icc-rgb': ['off', { allow_images: true }],
  'colour.lab': ['info'],
  'transparency.group-colour-space': ['info'],
  'images.resolution-low': ['error', { min_ppi: 150, min_ppi_1bit: 550, ...EXEMPT }],
  'images.resolution-marginal': ['warn', { recommended_ppi: 225, recommended_ppi_1bit: 800, ...EXEMPT }],
  'image.rgb': ['info'],
  'image.alpha': ['info'],
} satisfies Table;

/** On-screen use: RGB is native, print-only checks are off, fonts and resolution still matter. */
const SCREEN = {
  ...COMMON,
  'pdf.encrypted': ['info'],
  'document.embedded-files': ['info'],
  'document.layers': ['info'],
  'document.forms': ['off'],
  'fonts.not-embedded': ['warn'], // viewers substitute fonts too, but the page still reads
  'artwork.size-mismatch': ['warn', { tolerance_mm: 1 }],
  'images.resolution-low': ['warn', { min_ppi: 72, min_ppi_1bit: 150, ...EXEMPT }], // ours
  'images.resolution-marginal': ['info', { recommended_ppi: 96, recommended_ppi_1bit: 300, ...EXEMPT }], // ours
  'transparency.used': ['off'],
  'fonts.type3': ['off'],
  'image.resolution-unknown': ['off'],
  ...off([
    'document.output-intent', 'annotations.in-trim', 'boxes.trimbox-missing', 'boxes.trimbox-outside-mediabox', 'boxes.bleedbox-outside-mediabox',
    'boxes.inconsistent', 'bleed.insufficient', 'safety.live-content', 'text.small', 'text.rich-black', 'lines.thin', 'colour.rgb', 'colour.icc-rgb',
    'colour.lab', 'colour.spot', 'colour.registration', 'colour.tac', 'overprint.white', 'transparency.group-colour-space', 'images.16-bit',
    'image.rgb', 'image.alpha', 'image.no-icc',
  ]),
} satisfies Table;

/** The checks given, each turned off. */
function off<Id extends CheckId>(ids: readonly Id[]): { [K in Id]: readonly ['off'] } {
  return Object.fromEntries(ids.map((id) => [id, ['off'] as const])) as { [K in Id]: readonly ['off'] };
}

const BOTH_FIXES = ['boxes.normalize', 'actions.remove'];

export const PREFLIGHT_PROFILES: readonly PreflightProfileInfo[] = [
  profile('default', 'Digital print (default)', 'Sensible checks for digital print: fonts embedded, page boxes and bleed, image resolution (150 ppi minimum), colour (RGB and Lab noted, DeviceRGB not an error), thin lines and small text, transparency, and the order context (artwork size, page count, bleed, safety margin).', DEFAULT),
  profile('gwg-sheetfed-cmyk', 'GWG 2022 sheetfed offset (CMYK)', 'Ghent Workgroup 2022 values for sheetfed offset printing in CMYK only: no RGB, Lab or spot colours, 150 ppi minimum (225 recommended), 320 % total ink, text with several inks at least 8 pt, lines at least 0.25 pt, TrimBox required.', SHEETFED),
  profile('gwg-digital-print', 'GWG 2022 digital print', 'Ghent Workgroup 2022 values for digital print: ICC-based RGB images allowed (DeviceRGB not), spot colours converted with a warning, 96 ppi minimum (150 recommended), no ink limit.', DIGITAL),
  profile('gwg-web-cmyk', 'GWG 2022 heatset web offset (CMYK)', 'Ghent Workgroup 2022 values for heatset web offset in CMYK only: as sheetfed, with 305 % total ink and text with several inks at least 9 pt.', WEB),
  profile('gwg-newspaper', 'GWG 2022 newspaper (coldset)', 'Ghent Workgroup 2022 values for newspaper printing: 245 % total ink, text with several inks at least 10 pt, 100 ppi minimum (150 recommended), CMYK only.', NEWSPAPER),
  profile('screen', 'Screen (on-screen PDF)', 'For PDFs viewed on screen: RGB is fine, no bleed or TrimBox requirements, fonts should be embedded, images at least 72 ppi (96 recommended); print-only checks are off.', SCREEN),
];

function profile(id: string, name: string, description: string, table: Table): PreflightProfileInfo {
  const checks: CheckSpec[] = [];
  // Catalogue order, so findings of equal severity read in the same order in every profile.
  for (const checkId of Object.keys(CHECK_DESCRIPTIONS) as CheckId[]) {
    const [severity, thresholds] = table[checkId] as readonly [Severity, CheckSpec['thresholds']?];
    checks.push({ id: checkId, severity, description: CHECK_DESCRIPTIONS[checkId], ...(thresholds ? { thresholds: { ...thresholds } } : {}) });
  }
  return { id, name, description, checks, defaultFixes: [...BOTH_FIXES] };
}
