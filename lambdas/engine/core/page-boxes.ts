/**
 * Page boundaries (ISO 32000-1 14.11.2): MediaBox and CropBox are inherited
 * through the page tree, Bleed/Trim/ArtBox are not and default to the CropBox,
 * which defaults to the MediaBox. Rotation and UserUnit change how big a page
 * is in the world, so both are read here as well.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { inherited } from './inherited';
import { getNumber, name, numbersOf, resolve } from './pdf-objects';

/** [x1, y1, x2, y2] in user space units, normalised so x1 < x2 and y1 < y2. */
export type Rect = [number, number, number, number];

export const MM_PER_PT = 25.4 / 72;
/** US Letter: what readers assume when a page has no usable MediaBox. */
export const DEFAULT_MEDIA_BOX: Rect = [0, 0, 612, 792];

export type BoxName = 'MediaBox' | 'CropBox' | 'BleedBox' | 'TrimBox' | 'ArtBox';

export interface PageBoxes {
  /** As written (after inheritance); null when absent or unusable. */
  declared: Record<BoxName, Rect | null>;
  /** Effective boxes after the defaults of 14.11.2 (CropBox clipped to the MediaBox). */
  media: Rect;
  crop: Rect;
  bleed: Rect;
  trim: Rect;
  art: Rect;
  /** 0, 90, 180 or 270. */
  rotation: number;
  /** Size of one user space unit in 1/72 inch (PDF 1.6 UserUnit, default 1). */
  userUnit: number;
}

/** An inheritable page attribute: the nearest ancestor's value, with a cycle guard. */
export function inheritedAttribute(page: PDFDict, key: string): PDFObject | undefined {
  return inherited(page, key, { maxDepth: Infinity });
}

/** A usable rectangle from a PDF array, normalised; null for anything else. */
export function rectFrom(obj: unknown): Rect | null {
  if (!(obj instanceof PDFArray) || obj.size() !== 4) return null;
  const n = numbersOf(obj);
  if (!n || n.some((v) => !Number.isFinite(v))) return null;
  const r: Rect = [Math.min(n[0]!, n[2]!), Math.min(n[1]!, n[3]!), Math.max(n[0]!, n[2]!), Math.max(n[1]!, n[3]!)];
  return r[2] - r[0] > 0 && r[3] - r[1] > 0 ? r : null;
}

export function readPageBoxes(context: PDFContext, page: PDFDict): PageBoxes {
  const own = (key: BoxName): Rect | null => rectFrom(resolve(context, page.get(name(key))));
  const declared: Record<BoxName, Rect | null> = {
    MediaBox: rectFrom(inheritedAttribute(page, 'MediaBox')),
    CropBox: rectFrom(inheritedAttribute(page, 'CropBox')),
    BleedBox: own('BleedBox'),
    TrimBox: own('TrimBox'),
    ArtBox: own('ArtBox'),
  };
  const media = declared.MediaBox ?? DEFAULT_MEDIA_BOX;
  const crop = (declared.CropBox && intersect(declared.CropBox, media)) ?? media;
  const rotateObj = inheritedAttribute(page, 'Rotate');
  const rawRotation = rotateObj instanceof PDFNumber ? rotateObj.asNumber() : 0;
  const rotation = Number.isFinite(rawRotation) && rawRotation % 90 === 0 ? (((rawRotation % 360) + 360) % 360) : 0;
  const uu = getNumber(page, 'UserUnit');
  return {
    declared,
    media,
    crop,
    bleed: declared.BleedBox ?? crop,
    trim: declared.TrimBox ?? crop,
    art: declared.ArtBox ?? crop,
    rotation,
    userUnit: uu !== undefined && uu > 0 ? uu : 1,
  };
}

export function intersect(a: Rect, b: Rect): Rect | null {
  const r: Rect = [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])];
  return r[2] > r[0] && r[3] > r[1] ? r : null;
}

/** True when `inner` lies within `outer`, allowing `tolerance` units of rounding. */
/** The rectangle grown by `by` on every side. */
export const grownBy = (r: Rect, by: number): Rect => [r[0] - by, r[1] - by, r[2] + by, r[3] + by];

export function contains(outer: Rect, inner: Rect, tolerance = 0.01): boolean {
  return inner[0] >= outer[0] - tolerance && inner[1] >= outer[1] - tolerance && inner[2] <= outer[2] + tolerance && inner[3] <= outer[3] + tolerance;
}

export function sameRect(a: Rect, b: Rect, tolerance = 0.01): boolean {
  return a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);
}

export const width = (r: Rect): number => r[2] - r[0];
export const height = (r: Rect): number => r[3] - r[1];

/** Size in millimetres as the page is seen (rotation swaps the sides), one decimal. */
export function sizeMm(r: Rect, userUnit: number, rotation = 0): { width: number; height: number } {
  const w = round1(width(r) * userUnit * MM_PER_PT);
  const h = round1(height(r) * userUnit * MM_PER_PT);
  return rotation % 180 === 0 ? { width: w, height: h } : { width: h, height: w };
}

/** How far `outer` extends beyond `inner` on each side, in mm (negative: falls short). */
export function marginsMm(outer: Rect, inner: Rect, userUnit: number): { top: number; right: number; bottom: number; left: number } {
  const k = userUnit * MM_PER_PT;
  return {
    top: round1((outer[3] - inner[3]) * k),
    right: round1((outer[2] - inner[2]) * k),
    bottom: round1((inner[1] - outer[1]) * k),
    left: round1((inner[0] - outer[0]) * k),
  };
}

export const round1 = (v: number): number => Math.round(v * 10) / 10;
export const round2 = (v: number): number => Math.round(v * 100) / 100;

/** Writes a rectangle into a page dictionary. */
export function setBox(context: PDFContext, page: PDFDict, key: BoxName, r: Rect): void {
  page.set(PDFName.of(key), context.obj(r.map(round2)));
}
