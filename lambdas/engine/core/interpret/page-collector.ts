/**
 * Aggregates what the interpreter paints on one page into a PageInventory (see
 * types.ts): text runs grouped by font, size, painting and paint; strokes
 * by width and paint; colour use by object kind and space; the painted areas
 * that matter for coverage and overprint; transparency; live content boxes.
 * Lists that could grow with the content (areas, live content, images) are
 * bounded so a page of a million paths stays a small inventory.
 */
import type { PDFDict } from '@cantoo/pdf-lib';
import type { Rect } from '../page-boxes';
import type {
  ColourSpaceInfo,
  ColourUse,
  FontUse,
  LimitHit,
  ObjectKind,
  PageInventory,
  PaintedArea,
  PaintState,
  PaintSummary,
  PlacedImage,
  StrokeGroup,
  TextGroup,
  TransparencyUse,
  Within,
} from './types';
import { extend, union } from './matrix';

/** Painted areas kept by coverage, and white overprinting areas kept besides them. */
const MAX_AREAS = 200;
const MAX_WHITE_OVERPRINT = 200;
const MAX_LIVE_CONTENT = 300;

const ids = new WeakMap<object, number>();
let nextId = 1;
/** A small number per object, for group keys (paints and states are interned, so identity is equality). */
export function idOf(o: object | null): number {
  if (o === null) return 0;
  let id = ids.get(o);
  if (id === undefined) {
    id = nextId++;
    ids.set(o, id);
  }
  return id;
}

const KIND_INDEX: Record<ObjectKind, number> = { text: 0, vector: 1, image: 2, shading: 3 };

const spotCache = new WeakMap<ColourSpaceInfo, { spots: string[]; registration: boolean }>();
const PROCESS_NAMES = new Set(['Cyan', 'Magenta', 'Yellow', 'Black', 'All', 'None']);

/** Spot colorant names and registration in a space, its base and alternate included. */
function spotsOf(space: ColourSpaceInfo): { spots: string[]; registration: boolean } {
  let hit = spotCache.get(space);
  if (!hit) {
    const spots: string[] = [];
    let registration = false;
    for (let s: ColourSpaceInfo | undefined = space, depth = 0; s && depth < 8; s = s.base, depth++) {
      for (const c of s.colorants ?? []) {
        if (c === 'All') registration = true;
        else if (!PROCESS_NAMES.has(c)) spots.push(c);
      }
      if (s.family === 'Separation' || s.family === 'DeviceN') break; // the alternate is not what prints
    }
    hit = { spots, registration };
    spotCache.set(space, hit);
  }
  return hit;
}

/** Text groups remembered per page for the quick match in textRun: a page's text mostly cycles through a few styles. */
const RECENT_TEXT_GROUPS = 8;

export class PageCollector {
  readonly images: PlacedImage[] = [];
  readonly limits: LimitHit[] = [];
  operations = 0;
  private readonly fonts = new Map<PDFDict, FontUse>();
  private readonly text = new Map<string, TextGroup>();
  private readonly recentText: TextGroup[] = [];
  private recentNext = 0;
  private readonly strokes = new Map<string, StrokeGroup>();
  private readonly colours = new Map<string, ColourUse>();
  private readonly coloursBySpace = new Map<ColourSpaceInfo, (ColourUse | undefined)[]>();
  private readonly transparency = new Map<string, TransparencyUse>();
  private areas: PaintedArea[] = [];
  private readonly whiteOverprint: PaintedArea[] = [];
  private maxTac: number | null = null;
  private readonly spots = new Set<string>();
  private registration = false;
  private contentBox: Rect | null = null;
  private live: { kind: 'text' | 'image'; bbox: Rect }[] = [];

  constructor(readonly page: number) {}

  limit(limit: LimitHit['limit'], detail: string): void {
    if (!this.limits.some((l) => l.limit === limit && l.detail === detail)) this.limits.push({ page: this.page, limit, detail });
  }

  hasLimit(limit: LimitHit['limit']): boolean {
    return this.limits.some((l) => l.limit === limit);
  }

  font(font: PDFDict, objectNumber: number | null, sizePt: number, glyphs: number, visible: boolean): void {
    const use = this.fonts.get(font);
    if (!use) {
      this.fonts.set(font, { page: this.page, font, objectNumber, minSizePt: sizePt, maxSizePt: sizePt, glyphs, visible });
      return;
    }
    if (sizePt < use.minSizePt) use.minSizePt = sizePt;
    if (sizePt > use.maxSizePt) use.maxSizePt = sizePt;
    use.glyphs += glyphs;
    use.visible ||= visible;
    if (use.objectNumber === null) use.objectNumber = objectNumber;
  }

  /** A font of a stream that could not be read: listed as used and visible, so nothing is hidden. */
  unreadFont(font: PDFDict, objectNumber: number | null): void {
    if (!this.fonts.has(font)) this.fonts.set(font, { page: this.page, font, objectNumber, minSizePt: 0, maxSizePt: 0, glyphs: 0, visible: true, unread: true });
  }

  textRun(
    font: PDFDict | null,
    fontName: string,
    sizePt: number,
    painting: TextGroup['painting'],
    fill: PaintSummary | null,
    stroke: PaintSummary | null,
    state: PaintState,
    bbox: Rect,
    within: Within,
  ): void {
    const size = Math.round(sizePt * 10) / 10;
    // The groups used last are compared field by field first: building the
    // string key for every text run cost more than grouping it.
    const recent = this.recentText;
    for (let i = 0; i < recent.length; i++) {
      const g = recent[i]!;
      if (g.font === font && g.sizePt === size && g.painting === painting && g.fill === fill && g.stroke === stroke && g.state === state && g.within === within && (font !== null || g.fontName === fontName)) {
        g.count++;
        extend(g.union, bbox);
        return;
      }
    }
    const key = `${font ? idOf(font) : fontName}|${size}|${painting}|${idOf(fill)}|${idOf(stroke)}|${idOf(state)}|${within}`;
    let group = this.text.get(key);
    if (group) {
      group.count++;
      extend(group.union, bbox);
    } else {
      group = { page: this.page, font, fontName, sizePt: size, painting, fill, stroke, state, within, count: 1, bbox, union: [...bbox] };
      this.text.set(key, group);
    }
    if (recent.length < RECENT_TEXT_GROUPS) recent.push(group);
    else recent[this.recentNext++ % RECENT_TEXT_GROUPS] = group;
  }

  stroke(widthPt: number, paint: PaintSummary, state: PaintState, bbox: Rect): void {
    const width = Math.round(widthPt * 100) / 100;
    const key = `${width}|${idOf(paint)}|${idOf(state)}`;
    const group = this.strokes.get(key);
    if (group) {
      group.count++;
      extend(group.union, bbox);
      return;
    }
    this.strokes.set(key, { page: this.page, widthPt: width, stroke: paint, state, count: 1, bbox, union: [...bbox] });
  }

  colour(kind: ObjectKind, space: ColourSpaceInfo, bbox: Rect, within: Within): void {
    // Spaces are interned by the resolver, so most calls hit the per-object map; the label map merges equal labels.
    let byKind = this.coloursBySpace.get(space);
    if (!byKind) {
      byKind = [undefined, undefined, undefined, undefined];
      this.coloursBySpace.set(space, byKind);
      const { spots, registration } = spotsOf(space);
      for (const s of spots) this.spots.add(s);
      if (registration) this.registration = true;
    }
    const k = KIND_INDEX[kind];
    let use = byKind[k];
    if (!use) {
      const key = `${kind}|${space.label}`;
      use = this.colours.get(key);
      if (!use) {
        this.colours.set(key, { page: this.page, kind, space, count: 1, bbox, union: [...bbox], within: [within] });
        byKind[k] = this.colours.get(key);
        return;
      }
      byKind[k] = use;
    }
    use.count++;
    extend(use.union, bbox);
    if (!use.within.includes(within)) use.within.push(within);
  }

  /** A painted object for coverage and overprint checks; kept when it is in ink terms or white set to overprint. */
  area(kind: ObjectKind, paint: PaintSummary, state: PaintState, bbox: Rect, within: Within): void {
    if (paint.tacPercent !== null && (this.maxTac === null || paint.tacPercent > this.maxTac)) this.maxTac = paint.tacPercent;
    if (paint.white && state.overprint) {
      if (this.whiteOverprint.length < MAX_WHITE_OVERPRINT) this.whiteOverprint.push({ page: this.page, kind, paint, state, bbox, within });
      return;
    }
    if (paint.tacPercent === null) return;
    this.areas.push({ page: this.page, kind, paint, state, bbox, within });
    if (this.areas.length >= 2 * MAX_AREAS) this.areas = byCoverage(this.areas).slice(0, MAX_AREAS);
  }

  transparencyUse(kind: TransparencyUse['kind'], bbox: Rect | null, extra: Pick<TransparencyUse, 'value' | 'groupColourSpace' | 'isolated' | 'knockout'> = {}): void {
    const key = `${kind}|${extra.value ?? ''}|${extra.groupColourSpace?.label ?? ''}|${extra.isolated ?? ''}|${extra.knockout ?? ''}`;
    const use = this.transparency.get(key);
    if (use) {
      use.count++;
      if (bbox) use.bbox = use.bbox ? union(use.bbox, bbox) : [...bbox];
      return;
    }
    this.transparency.set(key, { page: this.page, kind, ...extra, count: 1, bbox: bbox ? [...bbox] : null });
  }

  /** Something visible painted by the page itself (not an annotation): grows the content box; text and images are live content. */
  visible(bbox: Rect, live: 'text' | 'image' | null): void {
    if (this.contentBox) extend(this.contentBox, bbox);
    else this.contentBox = [...bbox];
    if (!live) return;
    this.live.push({ kind: live, bbox });
    if (this.live.length >= 2 * MAX_LIVE_CONTENT) this.live = mergeNeighbours(this.live);
  }

  image(img: PlacedImage): void {
    this.images.push(img);
  }

  finish(): PageInventory {
    const areas = [...this.whiteOverprint, ...byCoverage(this.areas).slice(0, MAX_AREAS)];
    return {
      page: this.page,
      images: this.images,
      fonts: [...this.fonts.values()],
      text: [...this.text.values()],
      strokes: [...this.strokes.values()],
      colours: [...this.colours.values()],
      paintedAreas: areas,
      maxTacPercent: this.maxTac,
      spotColours: [...this.spots].sort(),
      registration: this.registration,
      transparency: [...this.transparency.values()],
      contentBox: this.contentBox,
      liveContent: this.live.length > MAX_LIVE_CONTENT ? mergeNeighbours(this.live) : this.live,
      empty: this.contentBox === null,
      operations: this.operations,
      limits: this.limits,
    };
  }
}

function byCoverage(areas: PaintedArea[]): PaintedArea[] {
  return areas.sort((a, b) => (b.paint.tacPercent ?? -1) - (a.paint.tacPercent ?? -1));
}

/**
 * Halves a list of boxes by merging neighbours of each kind, in painting order
 * (which follows the layout: lines of text, rows of images). A union of boxes
 * inside a rectangle stays inside it, so a safety-margin check never gets a
 * false hit from merging.
 */
function mergeNeighbours(list: { kind: 'text' | 'image'; bbox: Rect }[]): { kind: 'text' | 'image'; bbox: Rect }[] {
  const out: { kind: 'text' | 'image'; bbox: Rect }[] = [];
  for (const kind of ['text', 'image'] as const) {
    let pending: Rect | null = null;
    for (const item of list) {
      if (item.kind !== kind) continue;
      if (pending) {
        out.push({ kind, bbox: union(pending, item.bbox) });
        pending = null;
      } else pending = item.bbox;
    }
    if (pending) out.push({ kind, bbox: pending });
  }
  return out;
}
