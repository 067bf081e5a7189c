/**
 * A PDF with a finding at a known place, and where the console should frame it on screen: the
 * browser tests (console-job-page.test.ts in Chromium, console-firefox.test.ts in Firefox) compare
 * a frame's position with the report's coordinates, converted by the page image's own scale.
 */
import { expect } from 'vitest';
import { A5, buildPdf, MM, type Rect } from '../../support/pdf-fixtures';

export const BLEED = 3 * MM;
/** A5 with 3 mm bleed: the MediaBox is the BleedBox, the TrimBox inside it. */
export const MEDIA: Rect = [0, 0, A5[0] + 2 * BLEED, A5[1] + 2 * BLEED];
export const TRIM: Rect = [BLEED, BLEED, BLEED + A5[0], BLEED + A5[1]];
/** Where pdf-fixtures places the image: at (72, 72), 144 pt square. */
export const IMAGE_BOX: Rect = [72, 72, 216, 216];

/**
 * One A5 page with 3 mm bleed and a 40 px image stretched over 2 × 2 inches at 1 inch from the
 * bottom left: far too coarse for print, so preflight reports `images.resolution-low` at IMAGE_BOX.
 * With `javascript`, document JavaScript too (a finding that "Fix it" removes).
 */
export function coarseImagePdf(opts: { javascript?: boolean } = {}): Promise<Uint8Array> {
  return buildPdf({
    pageDefaults: { mediaBox: MEDIA, trimBox: TRIM, bleedBox: MEDIA, image: { widthPx: 40, heightPx: 40, placedWidthPt: 144, placedHeightPt: 144 } },
    ...(opts.javascript ? { documentJavaScript: 'app.alert("hello");', openAction: 'javascript' as const } : {}),
  });
}

export interface ScreenRect {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The report's box as it should appear over the page image: points from the visible area's top left, times the image's own scale. */
export function expectedOnScreen(image: { left: number; top: number; width: number }, box: Rect, visible: Rect): ScreenRect {
  const scale = image.width / (visible[2] - visible[0]);
  return { left: image.left + (box[0] - visible[0]) * scale, top: image.top + (visible[3] - box[3]) * scale, width: (box[2] - box[0]) * scale, height: (box[3] - box[1]) * scale };
}

export function expectClose(actual: object, expected: object, px = 2): void {
  const a = actual as Record<string, number>;
  for (const [k, want] of Object.entries(expected as Record<string, number>)) expect(Math.abs(a[k]! - want), `${k}: ${a[k]} vs ${want}`).toBeLessThanOrEqual(px);
}
