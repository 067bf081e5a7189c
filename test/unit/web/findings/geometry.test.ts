/** web/src/findings/geometry.ts: a report's box in PDF points lands where it is on the page image on the screen. */
import { describe, expect, it } from 'vitest';
import { displaySize, pageAspect, pixelsPerPoint, screenRect, stepZoom, ZOOM_LEVELS, type PageGeometry } from '../../../../web/src/findings/geometry';

/** A 600 × 800 pt page; `more` overrides its boxes or rotation. */
const page = (more: Partial<PageGeometry> = {}): PageGeometry => ({ mediaBox: [0, 0, 600, 800], cropBox: null, rotation: 0, userUnit: 1, ...more });
const BOX: [number, number, number, number] = [100, 100, 200, 150];

describe('screenRect', () => {
  it('scales points to the displayed image and turns y downwards (origin at the top left)', () => {
    const display = displaySize({ width: 1200, height: 1600 }, 300, 1); // 0.5 CSS px per point
    expect(display).toEqual({ width: 300, height: 400 });
    expect(screenRect(page(), display, BOX)).toEqual({ left: 50, top: 325, width: 50, height: 25 });
  });

  it('measures from the visible area: a CropBox with its own origin, within a larger MediaBox', () => {
    const cropped = page({ mediaBox: [-50, -50, 650, 850], cropBox: [0, 0, 600, 800] });
    expect(screenRect(cropped, { width: 300, height: 400 }, BOX)).toEqual({ left: 50, top: 325, width: 50, height: 25 });
    const shifted = page({ mediaBox: [1000, 2000, 1600, 2800] });
    expect(screenRect(shifted, { width: 300, height: 400 }, [1100, 2100, 1200, 2150])).toEqual({ left: 50, top: 325, width: 50, height: 25 });
  });

  it('grows with the zoom: twice the zoom, twice every coordinate', () => {
    const at2 = displaySize({ width: 1200, height: 1600 }, 300, 2);
    expect(at2).toEqual({ width: 600, height: 800 });
    expect(screenRect(page(), at2, BOX)).toEqual({ left: 100, top: 650, width: 100, height: 50 });
  });

  it('follows /Rotate as the previews render it (clockwise)', () => {
    // Turned sideways, the image is 800 pt wide: shown 400 px wide, still 0.5 px per point.
    const sideways = { width: 400, height: 300 };
    // 90: the page's bottom edge becomes the left edge.
    expect(screenRect(page({ rotation: 90 }), sideways, BOX)).toEqual({ left: 50, top: 50, width: 25, height: 50 });
    // 180: upside down.
    expect(screenRect(page({ rotation: 180 }), { width: 300, height: 400 }, BOX)).toEqual({ left: 200, top: 50, width: 50, height: 25 });
    // 270 (and -90): the bottom edge becomes the right edge.
    expect(screenRect(page({ rotation: 270 }), sideways, BOX)).toEqual({ left: 325, top: 200, width: 25, height: 50 });
    expect(screenRect(page({ rotation: -90 }), sideways, BOX)).toEqual(screenRect(page({ rotation: 270 }), sideways, BOX));
  });

  it('takes UserUnit from the image size: the visible area always spans the whole image', () => {
    expect(screenRect(page({ userUnit: 10 }), { width: 300, height: 400 }, BOX)).toEqual({ left: 50, top: 325, width: 50, height: 25 });
  });

  it('clips a box to the image, and gives null for one wholly outside it (bleed beyond the CropBox)', () => {
    expect(screenRect(page(), { width: 300, height: 400 }, [-20, 700, 40, 900])).toEqual({ left: 0, top: 0, width: 20, height: 50 });
    expect(screenRect(page(), { width: 300, height: 400 }, [700, 100, 800, 200])).toBeNull();
  });
});

describe('page shapes and scale', () => {
  it('gives the aspect of the page image before it has arrived, turned by /Rotate', () => {
    expect(pageAspect(page())).toBeCloseTo(0.75);
    expect(pageAspect(page({ rotation: 90 }))).toBeCloseTo(4 / 3);
    expect(pageAspect(page({ cropBox: [0, 0, 400, 400] }))).toBeCloseTo(1);
  });

  it('says how many CSS pixels a point is on the screen', () => {
    expect(pixelsPerPoint(page(), { width: 300, height: 400 })).toBe(0.5);
    expect(pixelsPerPoint(page({ rotation: 90 }), { width: 400, height: 300 })).toBe(0.5);
  });

  it('keeps the image aspect at every zoom', () => {
    expect(displaySize({ width: 1000, height: 500 }, 560, 1.5)).toEqual({ width: 840, height: 420 });
  });
});

describe('stepZoom', () => {
  it('moves through the zoom levels and stops at both ends', () => {
    expect(stepZoom(1, 1)).toBe(1.5);
    expect(stepZoom(1, -1)).toBe(0.75);
    expect(stepZoom(ZOOM_LEVELS[ZOOM_LEVELS.length - 1]!, 1)).toBe(4);
    expect(stepZoom(0.5, -1)).toBe(0.5);
    expect(stepZoom(1.2, 1)).toBe(1.5);
    expect(stepZoom(1.2, -1)).toBe(1);
  });
});
