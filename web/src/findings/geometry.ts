/**
 * Where a finding's box goes on the screen. The preflight report gives boxes in PDF points in the
 * page's default user space ([x0, y0, x1, y1], origin where the page's boxes put it, y up); a
 * page image (previews, proofs) shows the visible area (CropBox within the MediaBox) turned by
 * /Rotate, which PDFium and pdf.js both honour. The mapping is the one the proof images are drawn
 * with (lambdas/engine/previews/proof-geometry.ts), applied to the image's size on the screen
 * rather than its pixels: the image is shown `fitWidth × zoom` CSS pixels wide, keeping its
 * aspect, and the visible area always spans the whole image, so the scale is exact whatever
 * resolution the previews were rendered at. Shared by the console's job page and the customer's
 * proof page.
 */
import { clipToImage, userSpaceToPixels, visibleArea, type PageGeometry, type PixelRect, type Rect } from '../../../lambdas/engine/previews/proof-geometry';

export type { PageGeometry, PixelRect, Rect };

export interface Size {
  width: number;
  height: number;
}

/** A page's geometry as the report lists it (report.pages[]), with the two boxes drawn as lines. */
export interface PageBoxes extends PageGeometry {
  trimBox: Rect | null;
  bleedBox: Rect | null;
}

/** The zoom steps the buttons and keys move through; 1 is the page fitted to the view's width. */
export const ZOOM_LEVELS = [0.5, 0.75, 1, 1.5, 2, 3, 4] as const;

/** The next zoom step in `direction` (+1 in, -1 out), staying at the ends. */
export function stepZoom(zoom: number, direction: 1 | -1): number {
  if (direction > 0) return ZOOM_LEVELS.find((z) => z > zoom + 1e-9) ?? ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!;
  return [...ZOOM_LEVELS].reverse().find((z) => z < zoom - 1e-9) ?? ZOOM_LEVELS[0]!;
}

/** The size the page image is shown at: `fitWidth` CSS px wide at zoom 1, its aspect kept. */
export function displaySize(image: Size, fitWidth: number, zoom: number): Size {
  const width = fitWidth * zoom;
  return { width, height: image.width > 0 ? (width * image.height) / image.width : width };
}

/**
 * The aspect (width / height) an image of the page has, from its geometry alone: what a
 * placeholder is shaped like before the image has arrived.
 */
export function pageAspect(page: PageGeometry): number {
  const [x0, y0, x1, y1] = visibleArea(page);
  const sideways = Math.round(page.rotation / 90) % 2 !== 0;
  return sideways ? (y1 - y0) / (x1 - x0) : (x1 - x0) / (y1 - y0);
}

/** CSS pixels per PDF point along the image's width, at this display size. */
export function pixelsPerPoint(page: PageGeometry, display: Size): number {
  const [x0, y0, x1, y1] = visibleArea(page);
  const sideways = Math.round(page.rotation / 90) % 2 !== 0;
  return display.width / (sideways ? y1 - y0 : x1 - x0);
}

/**
 * The rectangle, in CSS pixels from the image's top left corner, that `box` covers on the page
 * image shown at `display` size; clipped to the image, null when nothing of it is on the image.
 */
export function screenRect(page: PageGeometry, display: Size, box: Rect): PixelRect | null {
  return clipToImage(userSpaceToPixels(page, display)(box), display);
}
