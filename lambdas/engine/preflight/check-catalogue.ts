/**
 * Every preflight check the engine implements, with the sentence GET /profiles
 * shows for it. Profiles (profiles.ts) choose a severity and thresholds per
 * check; a check a profile does not list is not run.
 *
 * Import-free on purpose: the API's profiles handler reaches it through
 * profile-catalogue.ts and must not pull pdf-lib or sharp into its bundle.
 */
export const CHECK_DESCRIPTIONS = {
  // Document
  'pdf.encrypted': 'The PDF is encrypted (it has restrictions or a password); print workflows may refuse or alter it.',
  'document.javascript': 'The PDF contains JavaScript or launch actions; print workflows ignore them and some refuse the file.',
  'document.page-count': 'The number of pages is outside what was ordered (context.pageCount).',
  'document.embedded-files': 'The PDF carries embedded files (attachments); they do not print and some workflows refuse them.',
  'document.layers': 'The PDF has layers (optional content); only the layers visible by default will print.',
  'document.forms': 'The PDF has interactive form fields; what they show may print differently unless they are flattened.',
  'document.output-intent': 'The PDF claims PDF/X but has no PDF/X output intent, or has no output intent where the profile requires one (threshold `required`).',
  'document.repaired': "The PDF's internal structure is damaged (its cross-reference table, trailer or page tree); it was read by repairing it, and other programs may read it differently or refuse it.",
  'document.analysis-incomplete': 'Part of the page content could not be analysed (unreadable content, or a size or time limit was reached), so findings may be missing.',
  'annotations.in-trim': 'A printing annotation (comment, stamp, form field) lies over the finished page and would print.',
  // Pages and boxes
  'pages.mixed-sizes': 'The pages do not all have the same size.',
  'pages.empty': 'A page has no visible content.',
  'boxes.trimbox-missing': 'A page has no TrimBox, so the finished size is not stated.',
  'boxes.trimbox-outside-mediabox': "A page's TrimBox extends beyond its MediaBox.",
  'boxes.bleedbox-outside-mediabox': "A page's BleedBox extends beyond its MediaBox.",
  'boxes.inconsistent': "A page's boxes contradict each other: the TrimBox is not inside the BleedBox or the CropBox, or the ArtBox extends beyond the TrimBox.",
  'bleed.insufficient': 'A page has less bleed around its TrimBox than required.',
  'artwork.size-mismatch': 'The trim size differs from the ordered artwork size (context.artworkSize), in either orientation.',
  'artwork.aspect-mismatch': "An image file's proportions differ from the ordered artwork size, so it would be cropped or distorted.",
  'safety.live-content': 'Text or an image edge lies within the safety margin inside the trim (context.safety.min_mm), where cutting tolerance can clip it.',
  // Fonts, text and lines
  'fonts.not-embedded': 'A font used for visible text is not embedded, so the printer would substitute another font.',
  'fonts.type3': 'A Type 3 font is used; its glyphs are drawings that some workflows render poorly at small sizes.',
  'text.small': 'Small text is printed with more than one ink, or in white, where slight misregistration makes it blurred or fringed.',
  'text.rich-black': 'Small black text is built from several inks (rich black), where slight misregistration makes it fringed.',
  'lines.thin': 'A line is thinner than the minimum and may break up or disappear in print.',
  // Colour
  'colour.rgb': 'Uncalibrated RGB (DeviceRGB) is used; its printed colour depends on how the printer converts it.',
  'colour.icc-rgb': 'ICC-based (calibrated) RGB is used; it is converted to the printing inks, which can dull bright colours.',
  'colour.lab': 'Lab colour is used; it is converted to the printing inks.',
  'colour.spot': 'Spot colours (named inks) are used; they need extra printing plates or are converted to process colours.',
  'colour.registration': 'The registration colour (Separation All) is used; it prints on every plate and belongs only on printer marks.',
  'colour.tac': 'The total ink (total area coverage, the sum of all inks) exceeds the maximum for the printing condition.',
  'overprint.white': 'A white object is set to overprint, so it disappears in print.',
  // Transparency
  'transparency.group-colour-space': 'A transparency group blends in a colour space other than CMYK (RGB or Lab), so transparent areas can change colour when flattened.',
  'transparency.used': 'The PDF uses transparency; the printer flattens it.',
  // Images placed in a PDF, and image files
  'images.resolution-low': "An image's effective resolution is below the minimum for print.",
  'images.resolution-marginal': "An image's effective resolution is below the recommended value for print.",
  'images.16-bit': 'An image has 16 bits per colour component; most workflows reduce it to 8 bits.',
  'image.resolution-unknown': 'An image file states no resolution and no artwork size was ordered, so its print resolution cannot be judged.',
  'image.rgb': 'An image file is RGB; the printer converts it to CMYK, which can dull bright colours.',
  'image.alpha': 'An image file has transparency; transparent areas print as bare paper.',
  'image.no-icc': 'An image file has no embedded ICC profile, so its colours are interpreted with a generic profile.',
} as const;

/** A preflight check's id. Profiles, settings, messages and findings are keyed by it, so a check missing from one of them fails to compile. */
export type CheckId = keyof typeof CHECK_DESCRIPTIONS;

/** Checks only an image file gets (raster.ts); a PDF gets every other check. */
export type ImageFileCheckId = Extract<CheckId, `image.${string}`> | 'artwork.aspect-mismatch';
/** The checks a PDF gets; each has a message in pdf-checks.ts. */
export type PdfCheckId = Exclude<CheckId, ImageFileCheckId>;
/** The checks an image file gets: its own, and the PDF checks judged on the one image; each has a message in raster.ts. */
export type RasterCheckId = ImageFileCheckId | 'images.resolution-low' | 'images.resolution-marginal' | 'document.page-count';

/**
 * The thresholds a check is judged with. Every profile that runs one of these
 * checks gives all of its thresholds (profiles.ts); the order context narrows
 * or adds some (settings.ts).
 */
export interface CheckThresholds {
  'pages.mixed-sizes': { tolerance_mm: number };
  'artwork.size-mismatch': { tolerance_mm: number };
  'artwork.aspect-mismatch': { tolerance_mm: number };
  'document.output-intent': { required: boolean };
  'bleed.insufficient': { required_mm: number };
  'text.small': { min_size_pt: number };
  'text.rich-black': { min_size_pt: number };
  'lines.thin': { min_width_pt: number };
  'colour.icc-rgb': { allow_images: boolean };
  'colour.tac': { max_percent: number };
  'images.resolution-low': { min_ppi: number; min_ppi_1bit: number; ignore_max_px: number };
  'images.resolution-marginal': { recommended_ppi: number; recommended_ppi_1bit: number; ignore_max_px: number };
}

/** Checks judged with thresholds: those with thresholds of their own, and those whose only thresholds come from the order context. */
export type ThresholdedCheckId = keyof CheckThresholds | 'document.page-count' | 'safety.live-content';

/** One check as a profile runs it: its severity there, and its thresholds. */
export interface CheckSpec {
  id: CheckId;
  severity: 'error' | 'warn' | 'info' | 'off';
  description: string;
  thresholds?: Record<string, number | string | boolean>;
}
