import { describe, expect, it } from 'vitest';
import { clipToImage, userSpaceToPixels, visibleArea, type PageGeometry } from '../../../../lambdas/engine/previews/proof-geometry';

/** A 200 × 100 pt page whose CropBox starts at (50, 20): the visible area is 100 × 60 pt. */
const cropped = (rotation: number, userUnit = 1): PageGeometry => ({ mediaBox: [0, 0, 200, 100], cropBox: [50, 20, 150, 80], rotation, userUnit });
/** A 10 × 10 pt square 10 pt in from the visible area's left and 5 pt up from its bottom. */
const square: [number, number, number, number] = [60, 25, 70, 35];

describe('mapping PDF user space to proof image pixels', () => {
  it('puts the CropBox origin at the image corner and flips y (no rotation)', () => {
    // 2 px per point: the visible 100 × 60 pt is 200 × 120 px.
    const map = userSpaceToPixels(cropped(0), { width: 200, height: 120 });
    expect(map(square)).toEqual({ left: 20, top: 90, width: 20, height: 20 });
    expect(map([50, 20, 150, 80])).toEqual({ left: 0, top: 0, width: 200, height: 120 });
  });

  it('turns the page clockwise for /Rotate 90: the bottom left corner goes to the top left', () => {
    // Sideways the image is 60 pt wide and 100 pt high.
    const map = userSpaceToPixels(cropped(90), { width: 120, height: 200 });
    expect(map(square)).toEqual({ left: 10, top: 20, width: 20, height: 20 });
  });

  it('turns it upside down for /Rotate 180', () => {
    const map = userSpaceToPixels(cropped(180), { width: 200, height: 120 });
    expect(map(square)).toEqual({ left: 160, top: 10, width: 20, height: 20 });
  });

  it('turns it anticlockwise for /Rotate 270: the bottom left corner goes to the bottom right', () => {
    const map = userSpaceToPixels(cropped(270), { width: 120, height: 200 });
    expect(map(square)).toEqual({ left: 90, top: 160, width: 20, height: 20 });
  });

  it('reads rotations as /Rotate allows them (negative, beyond 360)', () => {
    const size = { width: 120, height: 200 };
    expect(userSpaceToPixels(cropped(-90), size)(square)).toEqual(userSpaceToPixels(cropped(270), size)(square));
    expect(userSpaceToPixels(cropped(450), size)(square)).toEqual(userSpaceToPixels(cropped(90), size)(square));
  });

  it('takes the scale from the image, so UserUnit (which enlarges the rendered page) needs no dpi arithmetic', () => {
    // UserUnit 3: the visible area is 300 × 180 pt in the world; at 1 px per point the image is 300 × 180.
    const map = userSpaceToPixels(cropped(0, 3), { width: 300, height: 180 });
    expect(map(square)).toEqual({ left: 30, top: 135, width: 30, height: 30 });
  });

  it('shows the MediaBox without a CropBox, and only the part of a CropBox inside the MediaBox', () => {
    expect(visibleArea({ mediaBox: [0, 0, 200, 100], cropBox: null })).toEqual([0, 0, 200, 100]);
    expect(visibleArea({ mediaBox: [0, 0, 200, 100], cropBox: [-10, 50, 100, 300] })).toEqual([0, 50, 100, 100]);
    expect(visibleArea({ mediaBox: [0, 0, 200, 100], cropBox: [300, 300, 400, 400] })).toEqual([0, 0, 200, 100]);
  });

  it('clips a box to the image and drops one entirely outside', () => {
    const size = { width: 100, height: 50 };
    expect(clipToImage({ left: -10, top: 40, width: 30, height: 30 }, size)).toEqual({ left: 0, top: 40, width: 20, height: 10 });
    expect(clipToImage({ left: 120, top: 0, width: 10, height: 10 }, size)).toBeNull();
  });
});
