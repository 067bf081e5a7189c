/**
 * The interpreter's types. A leaf of core/interpret: it imports nothing from
 * the interpreter, so every module of it can name these without an import
 * cycle. Most of them are the page inventory below; the rest (Within, Frame)
 * say which stream a paint happens in.
 *
 * What the content interpreter found on a page, in a form preflight can judge
 * without reading the PDF again: every image placement, every font with the
 * text sizes it was used at, every colour space and paint by object kind, thin
 * strokes, small or special text, overprint, transparency and ink coverage.
 *
 * This is the contract between the interpreter (core/interpret/*) and the
 * preflight checks (preflight/*). It is profile-independent: the collector
 * aggregates by what matters to a check (font and size, line width, colour)
 * rather than applying thresholds, so one inventory serves every profile and a
 * 500-page file stays small. Geometry is in PDF points in the page's default
 * user space (before UserUnit and /Rotate), boxes as [x0, y0, x1, y1] with
 * x0 ≤ x1 and y0 ≤ y1.
 */
import type { PDFDict, PDFStream } from '@cantoo/pdf-lib';
import type { Rect } from '../page-boxes';

export type Matrix = [number, number, number, number, number, number];

export type ColourFamily =
  | 'DeviceGray'
  | 'DeviceRGB'
  | 'DeviceCMYK'
  | 'CalGray'
  | 'CalRGB'
  | 'Lab'
  | 'ICCBased'
  | 'Indexed'
  | 'Pattern'
  | 'Separation'
  | 'DeviceN'
  | 'Unknown';

/** A colour space, resolved from its name, array or reference. */
export interface ColourSpaceInfo {
  family: ColourFamily;
  /** Colour components an operand of this space has (Indexed: 1; Pattern: 0 or the underlying space's). */
  components: number;
  /** "DeviceCMYK", "ICCBased RGB", "Separation PANTONE 185 C", "DeviceN (Cyan, Magenta, Orange)", "Indexed DeviceRGB". */
  label: string;
  /** ICCBased: N and the profile header's data colour space ('RGB', 'CMYK', 'GRAY', 'Lab'), when readable. */
  icc?: { n: number; colourSpace: string | null };
  /** Separation / DeviceN colorant names as written (`All`, `None`, `PANTONE 185 C`, `Cyan`…). */
  colorants?: string[];
  /** Indexed: its base; Separation / DeviceN: the alternate space; Pattern: the underlying space. */
  base?: ColourSpaceInfo;
  /**
   * A device space that a Default* colour space of the resources replaced (ISO
   * 32000-1 8.6.5.6). The info keeps the device family; the label names the
   * replacement ("DeviceRGB (DefaultRGB ICCBased RGB)") and `defaultSpace` is it.
   */
  defaulted?: boolean;
  /** The Default* space that replaced this device space (with `defaulted`). */
  defaultSpace?: ColourSpaceInfo;
}

/**
 * Ink a paint puts down, per process colorant and per spot colorant, as
 * fractions 0–1. Null when the colour is not in ink terms (RGB, Lab,
 * ICC-based RGB, an uncoloured pattern): a printer's conversion decides.
 * DeviceGray g is K = 1 − g; Separation `All` (registration) is 1 × tint on
 * every process colorant; `None` puts no ink.
 */
export interface Inks {
  c: number;
  m: number;
  y: number;
  k: number;
  /** Spot colorants by name (tint 0–1). */
  spots: Record<string, number>;
}

/** The colour an object is painted with, as preflight judges it. */
export interface PaintSummary {
  space: ColourSpaceInfo;
  inks: Inks | null;
  /** Puts down no ink at all (CMYK 0/0/0/0, gray 1, tint 0, RGB 1/1/1): paper white. */
  white: boolean;
  /** Colorants with ink > 0 (process and spot); null when inks is null. */
  colorantCount: number | null;
  /** Sum of all ink percentages (0–400+); null when inks is null. */
  tacPercent: number | null;
  /** A pattern (tiling or shading) rather than a flat colour. */
  pattern: boolean;
}

/** ExtGState and overprint facts in effect when an object was painted. */
export interface PaintState {
  /** Overprint for the paint used (OP for strokes, op for fills; op defaults to OP). */
  overprint: boolean;
  /** Overprint mode OPM (0 or 1). */
  overprintMode: number;
  /** Constant alpha for the paint used (CA or ca). */
  alpha: number;
  blendMode: string;
  /** A soft mask (SMask in the ExtGState) is in effect. */
  softMask: boolean;
}

export type ObjectKind = 'text' | 'vector' | 'image' | 'shading';

export interface PlacedImage {
  page: number;
  /** The image XObject; null for an inline image. */
  xobject: PDFStream | null;
  /** Indirect object number of the XObject; null for inline images and direct objects. */
  objectNumber: number | null;
  inline: boolean;
  widthPx: number;
  heightPx: number;
  bitsPerComponent: number | null;
  /** Null for image masks (stencils have no colour space of their own). */
  colourSpace: ColourSpaceInfo | null;
  /** Decode filters in order (`DCTDecode`, `FlateDecode`…). */
  filters: string[];
  imageMask: boolean;
  /** Has an SMask stream (or SMaskInData) — soft-masked. */
  softMask: boolean;
  /** Has a /Mask (stencil or colour-key). */
  mask: boolean;
  /** CTM at the Do / BI: the image's unit square → page space. */
  matrix: Matrix;
  /** The placed unit square's bounding box on the page. */
  bbox: Rect;
  /** Pixels per inch along the image's own x and y axes (hypot of the CTM's columns, as pdfimages computes it), UserUnit applied. */
  ppiX: number;
  ppiY: number;
  /** Stencil masks: the fill they paint with. */
  fill: PaintSummary | null;
  state: PaintState;
  /** Painted inside a Type 3 glyph, a tiling pattern, an annotation appearance or a soft mask. */
  within: 'page' | 'form' | 'type3' | 'pattern' | 'annotation' | 'softmask';
}

/** One font's use on one page: the text it showed and the sizes it showed it at. */
export interface FontUse {
  page: number;
  font: PDFDict;
  objectNumber: number | null;
  /** Effective size in pt on the page: Tf size × text matrix × CTM (vertical scale), UserUnit applied. */
  minSizePt: number;
  maxSizePt: number;
  /** Glyphs shown (codes processed by Tj/TJ/'/"). */
  glyphs: number;
  /** Some glyph was shown in a rendering mode that paints (not 3 or 7). */
  visible: boolean;
  /**
   * Listed because a content stream whose resources hold the font could not be
   * decoded: it may be used, so it counts as used and visible; glyphs and sizes are 0.
   */
  unread?: boolean;
}

/**
 * Text runs aggregated by what text checks judge: font, size (rounded to
 * 0.1 pt), how it is painted (fill / stroke / both) and its paint. `bbox` is
 * the first run's box and `union` the box around all of them on the page.
 */
export interface TextGroup {
  page: number;
  font: PDFDict | null;
  fontName: string;
  sizePt: number;
  /** Fill, stroke or both (rendering modes 0/2/4/6 fill, 1/2/5/6 stroke); 'invisible' for 3/7. */
  painting: 'fill' | 'stroke' | 'fill-stroke' | 'invisible' | 'clip';
  fill: PaintSummary | null;
  stroke: PaintSummary | null;
  state: PaintState;
  /** The kind of stream the text is shown in (runs in different kinds are grouped apart). */
  within: Within;
  count: number;
  bbox: Rect;
  union: Rect;
}

/** Strokes aggregated by effective width (rounded to 0.01 pt) and stroke paint. */
export interface StrokeGroup {
  page: number;
  /** Line width in pt after the CTM (the smaller axis when scaled unevenly); 0 means the thinnest line the device can draw. */
  widthPt: number;
  stroke: PaintSummary;
  state: PaintState;
  count: number;
  bbox: Rect;
  union: Rect;
}

/** Colour use aggregated per page, object kind and colour space label. */
export interface ColourUse {
  page: number;
  kind: ObjectKind;
  space: ColourSpaceInfo;
  count: number;
  bbox: Rect;
  union: Rect;
  /** Every kind of stream the space was used in for this kind of object, in the order first seen. */
  within: Within[];
}

/** Filled or stroked vector areas, images and shadings whose paint matters for overprint and coverage checks. */
export interface PaintedArea {
  page: number;
  kind: ObjectKind;
  paint: PaintSummary;
  state: PaintState;
  bbox: Rect;
  /** The kind of stream it is painted in. */
  within: Within;
}

export interface TransparencyUse {
  page: number;
  /** What carries transparency: a group (page or form /Group /S /Transparency), a soft mask, constant alpha < 1, a blend mode other than Normal/Compatible, a soft-masked image. */
  kind: 'group' | 'soft-mask' | 'alpha' | 'blend-mode' | 'image-soft-mask';
  /** Group colour space (its /CS), when the group states one. */
  groupColourSpace?: ColourSpaceInfo | null;
  isolated?: boolean;
  knockout?: boolean;
  /** alpha value or blend mode name. */
  value?: number | string;
  count: number;
  bbox: Rect | null;
}

/** Limits the interpreter hit; the inventory is then partial for that page and says so. */
export interface LimitHit {
  page: number;
  limit: 'operations' | 'form-depth' | 'form-cycle' | 'undecodable-content' | 'images' | 'time';
  detail: string;
}

export interface PageInventory {
  page: number;
  images: PlacedImage[];
  fonts: FontUse[];
  text: TextGroup[];
  strokes: StrokeGroup[];
  colours: ColourUse[];
  /**
   * The painted areas with the highest ink coverage and every white area set to
   * overprint (at most a few hundred per page, highest coverage first): enough
   * for TAC and white-overprint checks.
   */
  paintedAreas: PaintedArea[];
  /** Highest TAC of any painted object (vector, text, shading, sampled CMYK image); null when nothing is in ink terms. */
  maxTacPercent: number | null;
  /** Spot colorant names used on the page (not All/None/process names). */
  spotColours: string[];
  /** Registration colour (Separation All) used. */
  registration: boolean;
  transparency: TransparencyUse[];
  /**
   * Box around everything visible painted by the page itself (text, images,
   * vectors, shadings; not annotations, and not white vector fills: a white
   * background is no content); null when nothing is painted.
   */
  contentBox: Rect | null;
  /** Boxes of live content (text and images) — for safety-margin checks; at most a few hundred, merged when more. */
  liveContent: { kind: 'text' | 'image'; bbox: Rect }[];
  /** Nothing visible is painted on the page (annotations excepted). */
  empty: boolean;
  operations: number;
  limits: LimitHit[];
}

/** Where a paint happens: the page's own content or a stream nested in it. */
export type Within = PlacedImage['within'];

/** What a content stream being run contributes to the page inventory. */
export interface Frame {
  within: Within;
  /** Counts for the page's content box, emptiness and live content (page content and its forms). */
  content: boolean;
  /** Paints are recorded (colours, coverage, text groups, strokes): false inside soft masks, which put down no ink. */
  ink: boolean;
  /** Paths are recorded: false inside Type 3 glyphs, where the glyph is the text already recorded. */
  vectors: boolean;
  /** Colour operators are ignored: uncoloured glyphs (d1) and uncoloured tiling patterns. */
  uncoloured: boolean;
  /** The CTM at the start of this stream: patterns are placed relative to it. */
  baseCtm: Matrix;
}
