/**
 * What the content checks need to know about a page: its number, finished
 * box and unit, and what the content interpreter found on it. Checks take this
 * narrow shape, so they can be specified with hand-built inventories.
 */
import type { PageInventory } from '../core/interpret/types';
import { intersect, type Rect } from '../core/page-boxes';

export interface InventoryPage {
  page: number;
  /** The effective TrimBox (the CropBox when none is declared). */
  trim: Rect;
  /** Size of one user-space unit in 1/72 inch. */
  userUnit: number;
  inventory: PageInventory;
}

/** The inventory of a page the interpreter did not reach (or found nothing on). */
export function emptyInventory(page: number): PageInventory {
  return {
    page,
    images: [],
    fonts: [],
    text: [],
    strokes: [],
    colours: [],
    paintedAreas: [],
    maxTacPercent: null,
    spotColours: [],
    registration: false,
    transparency: [],
    contentBox: null,
    liveContent: [],
    empty: true,
    operations: 0,
    limits: [],
  };
}

/** True when the two boxes overlap with a positive area. */
export const overlaps = (a: Rect, b: Rect): boolean => intersect(a, b) !== null;
