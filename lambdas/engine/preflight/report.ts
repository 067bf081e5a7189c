/**
 * The preflight report's shape. Sections the engine cannot fill honestly yet
 * (spot colours, per-object geometry) are left out rather than filled with
 * empty placeholders that would read as "none found".
 */
import type { CheckVerdict } from '../../domain/model';
import type { Rect } from '../core/page-boxes';
import type { Finding } from './findings';

export interface PdfDocumentSection {
  kind: 'pdf';
  pdfVersion: string | null;
  pageCount: number;
  fileSizeBytes: number;
  encrypted: boolean;
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
  annotations: number;
  tagged: boolean;
  title: string | null;
  creator: string | null;
  producer: string | null;
  /** Device colour spaces used by content and images. */
  deviceColourSpaces: string[];
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
}

export interface FontSection {
  name: string;
  type: string;
  embedded: boolean;
  subset: boolean;
  /** Pages whose resources reach the font. */
  pages: number[];
  /** Pages where it shows text; empty when declared but unused. */
  usedOnPages: number[];
}

export interface ImageSection {
  page: number;
  widthPx: number;
  heightPx: number;
  placedMm: { width: number; height: number };
  effectivePpi: number;
  bitsPerComponent: number | null;
  colourSpaces: string[];
  inline: boolean;
  imageMask: boolean;
}

export interface PreflightReport {
  profile: { id: string; name: string };
  outcome: CheckVerdict;
  summary: { errors: number; warnings: number; infos: number; pages: number };
  document: PdfDocumentSection | RasterDocumentSection;
  pages: PageSection[];
  fonts: FontSection[];
  images: ImageSection[];
  /** Set when more images were placed than the report lists. */
  imagesTruncated?: boolean;
  findings: Finding[];
  recommendedFixes: string[];
  [key: string]: unknown;
}
