/**
 * Where a rectangle in PDF user space lands on a rendered page image.
 *
 * The preflight report gives boxes in the page's default user space; a page
 * image shows the visible area (CropBox clipped to the MediaBox, as pdfjs
 * renders it), turned by /Rotate (clockwise) and enlarged by UserUnit. The
 * scale is taken from the image's own pixel size rather than from a dpi, so
 * UserUnit and any rounding of the image size by the renderer are accounted
 * for exactly: the visible area always spans the whole image.
 */

/**
 * [x0, y0, x1, y1] in user space, as core/page-boxes.ts's Rect (the same type, written out): this
 * module imports nothing, so the web console bundles it too (web/src/findings/geometry.ts) and
 * draws finding boxes in the browser exactly where the proofs draw them.
 */
export type Rect = [number, number, number, number];

export interface PageGeometry {
  mediaBox: Rect;
  /** As declared; null when the page has none (the MediaBox is then visible). */
  cropBox: Rect | null;
  /** Clockwise, as in /Rotate; normalised to 0, 90, 180 or 270. */
  rotation: number;
  userUnit: number;
}

/** Pixels from the image's top left corner. */
export interface PixelRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The visible area in user space: the CropBox within the MediaBox, else the MediaBox. */
export function visibleArea(page: Pick<PageGeometry, 'mediaBox' | 'cropBox'>): Rect {
  const m = page.mediaBox;
  const c = page.cropBox;
  if (!c) return m;
  const r: Rect = [Math.max(c[0], m[0]), Math.max(c[1], m[1]), Math.min(c[2], m[2]), Math.min(c[3], m[3])];
  return r[2] > r[0] && r[3] > r[1] ? r : m;
}

const normalisedRotation = (r: number): 0 | 90 | 180 | 270 => {
  const n = ((Math.round(r / 90) * 90) % 360 + 360) % 360;
  return n as 0 | 90 | 180 | 270;
};

/**
 * A function mapping user-space rectangles of `page` to pixel rectangles on
 * an image of `image.width` × `image.height` pixels of that page. Results
 * are not clipped: a box beyond the visible area maps beyond the image.
 */
export function userSpaceToPixels(page: PageGeometry, image: { width: number; height: number }): (r: Rect) => PixelRect {
  const [x0, y0, x1, y1] = visibleArea(page);
  const w = x1 - x0;
  const h = y1 - y0;
  const rotation = normalisedRotation(page.rotation);
  const sideways = rotation === 90 || rotation === 270;
  // Pixels per user-space unit along the image's width and height (UserUnit is inside).
  const sx = image.width / (sideways ? h : w);
  const sy = image.height / (sideways ? w : h);
  // A point (x, y) as pixel coordinates; u runs right, v runs down the unrotated page.
  const point = (x: number, y: number): [number, number] => {
    const u = x - x0;
    const v = y1 - y;
    switch (rotation) {
      case 0:
        return [u * sx, v * sy];
      case 90:
        return [(h - v) * sx, u * sy];
      case 180:
        return [(w - u) * sx, (h - v) * sy];
      case 270:
        return [v * sx, (w - u) * sy];
    }
  };
  return (r) => {
    const [ax, ay] = point(r[0], r[1]);
    const [bx, by] = point(r[2], r[3]);
    const left = Math.min(ax, bx);
    const top = Math.min(ay, by);
    return { left, top, width: Math.abs(bx - ax), height: Math.abs(by - ay) };
  };
}

/** The part of `r` inside an image of this size, or null when nothing of it is. */
export function clipToImage(r: PixelRect, image: { width: number; height: number }): PixelRect | null {
  const left = Math.max(0, r.left);
  const top = Math.max(0, r.top);
  const right = Math.min(image.width, r.left + r.width);
  const bottom = Math.min(image.height, r.top + r.height);
  return right > left && bottom > top ? { left, top, width: right - left, height: bottom - top } : null;
}
