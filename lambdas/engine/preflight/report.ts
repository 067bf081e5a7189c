/**
 * The preflight report's shape. Its names are part of the API: clients and
 * the agreement benchmark read them, so they do not change. Geometry is in PDF points in the
 * page's default user space, boxes as [x0, y0, x1, y1]; sizes in mm are as the
 * page is seen (UserUnit and /Rotate applied). Lists that can grow with the
 * file (images) are capped and say so.
 */
import type { CheckVerdict } from '../../domain/model';
import type { Rect } from '../core/page-boxes';
import type { CheckId } from './check-catalogue';
import type { Finding } from './findings';

export interface PdfDocumentSection {
  kind: 'pdf';
  pdfVersion: string | null;
  pageCount: number;
  fileSizeBytes: number;
  encrypted: boolean;
  /** What had to be repaired to read the file (damaged cross-reference data, trailer, page tree); empty when nothing. */
  repairs: string[];
  encryption?: { filter: string | null; keyBits: number | null; printingAllowed: boolean | null };
  /** Claimed conformance from XMP (and the Info dictionary for PDF/X). */
  pdfx: string | null;
  pdfa: string | null;
  pdfua: string | null;
  outputIntents: {
    subtype: string | null;
    outputConditionIdentifier: string | null;
    outputCondition: string | null;
    registryName: string | null;
    hasIccProfile: boolean;
    iccColourSpace: string | null;
  }[];
  javaScript: boolean;
  /** Actions by type (JavaScript, Launch, URI…), counted where they are attached. */
  actions: Record<string, number>;
  /** Annotations on all pages (links, comments, form widgets…). */
  annotations: number;
  /** Interactive form fields (terminal fields of the AcroForm). */
  formFields: number;
  embeddedFiles: { name: string; mimeType: string | null; sizeBytes: number | null; page: number | null }[];
  /** Optional content groups, with whether the default configuration shows them. */
  layers: { name: string; visibleByDefault: boolean }[];
  tagged: boolean;
  title: string | null;
  creator: string | null;
  producer: string | null;
  /** Colour spaces used anywhere ("DeviceCMYK", "ICCBased RGB", "Separation PANTONE 185 C"…). */
  colourSpaces: string[];
  transparency: boolean;
  /** Where the content analysis stopped early (unreadable content, limits); findings there may be missing. */
  analysisLimits: { page: number; limit: string; detail: string }[];
}

export interface RasterDocumentSection {
  kind: 'raster';
  format: string;
  fileSizeBytes: number;
  widthPx: number;
  heightPx: number;
  pageCount: number;
  /** Pixels per inch stated by the file; null when it states none. */
  densityPpi: number | null;
  /** Physical size at the stated density. */
  sizeMm: { width: number; height: number } | null;
  /** Resolution when printed at the ordered artwork size (or at the stated density). */
  effectivePpi: number | null;
  colourSpace: string;
  channels: number;
  bitsPerSample: number | null;
  hasAlpha: boolean;
  hasIccProfile: boolean;
  /** The embedded ICC profile's description ("sRGB IEC61966-2.1"), when it has one. */
  iccProfileDescription: string | null;
}

export interface PageSection {
  page: number;
  mediaBox: Rect;
  cropBox: Rect | null;
  trimBox: Rect | null;
  bleedBox: Rect | null;
  artBox: Rect | null;
  /** Finished size: the TrimBox, else the visible (crop) area, as the page is seen. */
  sizeMm: { width: number; height: number };
  mediaSizeMm: { width: number; height: number };
  /** Bleed beyond the TrimBox per side (BleedBox or its default, within the MediaBox). */
  bleedMm: { top: number; right: number; bottom: number; left: number } | null;
  rotation: number;
  userUnit: number;
  annotations: number;
  /** Nothing visible is painted (annotations aside). */
  empty: boolean;
  colourSpaces: string[];
  spotColors: string[];
  /**
   * Highest total ink of any object on the page; null when nothing is in ink
   * terms. CMYK image data is sampled only by profiles that check TAC.
   */
  maxTacPercent: number | null;
  transparency: boolean;
}

export interface FontSection {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  /** Indirect object number of the font dictionary; null for a direct object. */
  objectNumber: number | null;
  /** Pages whose resources reach the font. */
  pages: number[];
  /** Pages where it shows text; empty when declared but unused. */
  usedOnPages: number[];
  /** Smallest and largest text size shown, in pt on the page; null when unused. */
  minSizePt: number | null;
  maxSizePt: number | null;
}

export interface ImageSection {
  page: number;
  /** Pixels. */
  width: number;
  height: number;
  /** Effective resolution along the image's own axes where it is placed; null for an image file that states none. */
  ppiX: number | null;
  ppiY: number | null;
  colorSpace: string | null;
  bitsPerComponent: number | null;
  /** The placed image's box on the page. */
  bbox: Rect | null;
  /** Indirect object number of the image XObject; null for inline images. */
  objectNumber: number | null;
  inline: boolean;
  imageMask: boolean;
  /** The filter its data is encoded with (DCTDecode, FlateDecode, JPXDecode…), last in the chain. */
  filter: string | null;
  softMask: boolean;
  placedMm: { width: number; height: number } | null;
}

export interface SpotColourSection {
  name: string;
  pages: number[];
}

/**
 * A page as the report lists it: ours, plus the original hosted service's
 * snake_case view of it (docs/api.md §11 rule 5; `transparency` is ours already).
 */
export interface ReportPage extends PageSection {
  /** The smallest bleed of the four sides (bleedMm), in points of 1/72 inch; null without a TrimBox, as bleedMm. */
  bleed_pt: number | null;
}

/** An image as the report lists it: ours, plus the reference's snake_case view of it. */
export interface ReportImage extends ImageSection {
  /** The smaller of ppiX and ppiY, in whole ppi (as the resolution checks judge it); null when unknown. */
  effective_dpi: number | null;
  /** The colour space's PDF name (`DeviceCMYK`, `ICCBased`, `Indexed`…); null when the image names none we can tell. */
  color_space: string | null;
}

/** The reference's sections (docs/api.md §11 rule 5: `geometry`, `text`, …, `order`). */
export type EvaluationSection = 'geometry' | 'text' | 'fonts' | 'images' | 'colour' | 'transparency' | 'document' | 'order';

/** Our severities in the reference's words: error → reject, warn → warn, info → ignore. */
export type EvaluationSeverity = 'reject' | 'warn' | 'ignore';

/** The units a measured or required value carries in its key (`measured_mm`, `required_dpi`). */
export type EvaluationUnit = 'mm' | 'pt' | 'dpi' | 'percent' | 'count';

export interface EvaluationAutofix {
  available: boolean;
  /** Present when available: the step that applies it (the reference names its runner). */
  runner?: 'autofix';
  /** The fix for the finding's worst case that has one. */
  fixId?: string;
  /** Every fix the finding's cases need, when they need more than one (Finding.fix.fixIds). */
  fixIds?: string[];
  /** How the fix resolves it: the fix's name in the catalogue (GET /profiles `fixes`). */
  strategy?: string;
  /** The parameters POST /jobs/fix would apply it with (its defaults), for a fix that has any. */
  params?: Record<string, number | boolean | string>;
}

/** `measured_<unit>` and `required_<unit>`, where the finding's observation carries them. */
export type EvaluationValues = { [K in `${'measured' | 'required'}_${EvaluationUnit}`]?: number };

/** One finding, on one page, in the reference's shape. */
export type EvaluationFinding = EvaluationValues & {
  sectionId: EvaluationSection;
  /** Our check id. */
  ruleId: CheckId;
  severity: EvaluationSeverity;
  /** What was judged: `document`, `pages`, `fonts`, `text`, `lines`, `images`, `objects`, `annotations`. */
  target: string;
  page?: number;
  font?: string;
  autofix: EvaluationAutofix;
  locate: { boxes: { page: number; rect: Rect }[] };
};

export interface Evaluation {
  findings: EvaluationFinding[];
  /** Set when a finding spans more pages than it is listed for (evaluation.ts says how many). */
  findingsTruncated?: boolean;
  /** Check ids that ran without a finding. */
  passed: CheckId[];
  /** Check ids that did not apply: off in the profile (or without their order context), or nothing of their kind in the file. */
  skipped: CheckId[];
  summary: { fail: number; warn: number; ignored: number; pass: number; skipped: number; autofixable: number; autofixableFails: number };
  /** What POST /jobs/fix without `items` would apply; null when it would apply nothing. */
  recommendedAutofix: { runner: 'autofix'; fixes: string[]; params: Record<string, Record<string, number | boolean | string>> } | null;
}

export interface PreflightReport {
  profile: { id: string; name: string };
  outcome: CheckVerdict;
  summary: { errors: number; warnings: number; infos: number; pages: number };
  document: PdfDocumentSection | RasterDocumentSection;
  pages: ReportPage[];
  fonts: FontSection[];
  images: ReportImage[];
  /** Set when more images were placed than the report lists; `imageCount` is then the total. */
  imagesTruncated?: boolean;
  imageCount: number;
  spotColors: SpotColourSection[];
  findings: Finding<CheckId>[];
  recommendedFixes: string[];
  /** The reference's view of the same facts (docs/api.md §11 rule 5), built by reference-facts.ts and evaluation.ts. */
  source: { name: string; sizeBytes: number };
  /** What could not be analysed, one sentence each. */
  errors: string[];
  /** Null for an image file. */
  pdf: { version: string | null; page_count: number; tagged: boolean } | null;
  spot_colors: string[];
  evaluation: Evaluation;
  [key: string]: unknown;
}
