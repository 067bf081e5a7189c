/**
 * A first slice of the content interpreter: walks every page's content stream,
 * the form XObjects it paints (recursively, with a cycle guard) and its
 * annotations' appearance streams, and records what is actually used:
 *
 * - fonts selected with Tf and whether any text is shown with them in a visible
 *   rendering mode (mode 3 is invisible text, e.g. an OCR layer);
 * - device colour spaces set by operators (rg/k/g…, cs with a device space),
 *   images, inline images and shadings;
 * - image placements with the current transformation matrix, so effective
 *   resolution can be computed.
 *
 * It tracks only the graphics state it needs (CTM, font, text rendering mode,
 * through q/Q). A form's usage is summarised once and reused at each place it is
 * painted. A content stream that cannot be decoded marks every font of its
 * resources as used, so an unreadable stream never hides a problem.
 * Not yet followed: Type 3 glyph procedures, tiling patterns, soft masks.
 */
import { PDFDict, PDFStream, type PDFContext, type PDFDocument } from '@cantoo/pdf-lib';
import { defaultSpaces, deviceSpacesOf, deviceSpacesOfOperand, type DeviceSpace } from './colour-spaces';
import { isName, operations, type Operand } from './content-lexer';
import { appearanceStreams, contentBytes, fontsOf, inheritedResources } from './page-content';
import { getArray, getBool, getDict, getName, getNumber, name, numbersOf, resolve, streamBytes } from './pdf-objects';

export type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** m1 then m2 (PDF row-vector convention: p' = p × m1 × m2). */
export function multiply(m1: Matrix, m2: Matrix): Matrix {
  return [
    m1[0] * m2[0] + m1[1] * m2[2],
    m1[0] * m2[1] + m1[1] * m2[3],
    m1[2] * m2[0] + m1[3] * m2[2],
    m1[2] * m2[1] + m1[3] * m2[3],
    m1[4] * m2[0] + m1[5] * m2[2] + m2[4],
    m1[4] * m2[1] + m1[5] * m2[3] + m2[5],
  ];
}

export interface ImagePlacement {
  /** The image XObject; null for an inline image. */
  image: PDFStream | null;
  page: number;
  widthPx: number;
  heightPx: number;
  /** The image's unit square mapped to page space. */
  matrix: Matrix;
  imageMask: boolean;
  bitsPerComponent: number | null;
  deviceSpaces: DeviceSpace[];
}

export interface ContentUsage {
  /** Fonts selected with Tf, per font dictionary. */
  fonts: Map<PDFDict, { pages: Set<number>; visible: boolean }>;
  /** Device colour use per space: every page, and pages where no Default space replaced it. */
  deviceColours: Map<DeviceSpace, { pages: Set<number>; undefaultedPages: Set<number> }>;
  images: ImagePlacement[];
  /** Pages with a content stream that could not be decoded. */
  undecodablePages: Set<number>;
}

interface Summary {
  fonts: Map<PDFDict, boolean>;
  colours: Map<DeviceSpace, boolean>; // true when some use was not replaced by a Default space
  images: Omit<ImagePlacement, 'page'>[];
  undecodable: boolean;
}

const MAX_IMAGES_PER_STREAM = 2_000;
const MAX_IMAGES = 20_000;

export function scanContent(doc: PDFDocument): ContentUsage {
  const scanner = new Scanner(doc.context);
  const usage: ContentUsage = { fonts: new Map(), deviceColours: new Map(), images: [], undecodablePages: new Set() };
  doc.getPages().forEach((page, i) => {
    const pageNo = i + 1;
    const resources = inheritedResources(doc.context, page.node);
    const summaries = [scanner.summarise(contentBytes(doc.context, page.node.get(name('Contents'))), resources)];
    for (const ap of appearanceStreams(doc.context, page.node)) summaries.push(scanner.form(ap, resources));
    for (const s of summaries) merge(usage, s, pageNo);
  });
  return usage;
}

function merge(usage: ContentUsage, s: Summary, page: number): void {
  for (const [font, visible] of s.fonts) {
    const f = usage.fonts.get(font) ?? { pages: new Set<number>(), visible: false };
    f.pages.add(page);
    f.visible ||= visible;
    usage.fonts.set(font, f);
  }
  for (const [space, undefaulted] of s.colours) {
    const c = usage.deviceColours.get(space) ?? { pages: new Set<number>(), undefaultedPages: new Set<number>() };
    c.pages.add(page);
    if (undefaulted) c.undefaultedPages.add(page);
    usage.deviceColours.set(space, c);
  }
  for (const img of s.images) if (usage.images.length < MAX_IMAGES) usage.images.push({ ...img, page });
  if (s.undecodable) usage.undecodablePages.add(page);
}

class Scanner {
  private readonly formCache = new Map<PDFStream, Map<PDFDict | undefined, Summary>>();
  private readonly active = new Set<PDFStream>();
  constructor(private readonly context: PDFContext) {}

  /** A form XObject (or appearance stream) painted with `parentResources` in effect. */
  form(stream: PDFStream, parentResources: PDFDict | undefined): Summary {
    const own = getDict(stream.dict, 'Resources');
    const resources = own ?? parentResources;
    const key = own ? undefined : parentResources;
    const cached = this.formCache.get(stream)?.get(key);
    if (cached) return cached;
    if (this.active.has(stream)) return emptySummary();
    this.active.add(stream);
    try {
      const summary = this.summarise(streamBytes(stream), resources);
      const byResources = this.formCache.get(stream) ?? new Map();
      byResources.set(key, summary);
      this.formCache.set(stream, byResources);
      return summary;
    } finally {
      this.active.delete(stream);
    }
  }

  summarise(bytes: Uint8Array | null, resources: PDFDict | undefined): Summary {
    const s = emptySummary();
    const defaults = defaultSpaces(resources);
    const useColour = (spaces: Iterable<DeviceSpace>) => {
      for (const d of spaces) s.colours.set(d, (s.colours.get(d) ?? false) || !defaults.has(d));
    };
    if (bytes === null) {
      s.undecodable = true;
      for (const font of fontsOf(this.context, resources)) s.fonts.set(font, true);
      return s;
    }
    const fonts = getDict(resources, 'Font');
    const xobjects = getDict(resources, 'XObject');
    let state = { ctm: IDENTITY, font: undefined as PDFDict | undefined, mode: 0 };
    const stack: (typeof state)[] = [];

    for (const { op, operands } of operations(bytes)) {
      switch (op) {
        case 'q':
          if (stack.length < 256) stack.push(state);
          break;
        case 'Q':
          state = stack.pop() ?? state;
          break;
        case 'cm': {
          const m = matrixOf(operands);
          if (m) state = { ...state, ctm: multiply(m, state.ctm) };
          break;
        }
        case 'Tf': {
          const font = isName(operands[0]) ? resolve(this.context, fonts?.get(name(operands[0].name))) : undefined;
          state = { ...state, font: font instanceof PDFDict ? font : undefined };
          break;
        }
        case 'Tr':
          if (typeof operands[0] === 'number') state = { ...state, mode: operands[0] };
          break;
        case 'Tj':
        case 'TJ':
        case "'":
        case '"':
          if (state.font) s.fonts.set(state.font, (s.fonts.get(state.font) ?? false) || state.mode !== 3);
          break;
        case 'rg':
        case 'RG':
          useColour(['DeviceRGB']);
          break;
        case 'k':
        case 'K':
          useColour(['DeviceCMYK']);
          break;
        case 'g':
        case 'G':
          useColour(['DeviceGray']);
          break;
        case 'cs':
        case 'CS':
          useColour(deviceSpacesOfOperand(this.context, operands[0], resources));
          break;
        case 'sh': {
          const sh = isName(operands[0]) ? resolve(this.context, getDict(resources, 'Shading')?.get(name(operands[0].name))) : undefined;
          const dict = sh instanceof PDFStream ? sh.dict : sh instanceof PDFDict ? sh : undefined;
          if (dict) useColour(deviceSpacesOf(this.context, dict.get(name('ColorSpace')), resources));
          break;
        }
        case 'BI':
          this.inlineImage(s, operands[0], state.ctm, resources, useColour);
          break;
        case 'Do': {
          if (!isName(operands[0])) break;
          const xo = resolve(this.context, xobjects?.get(name(operands[0].name)));
          if (!(xo instanceof PDFStream)) break;
          const subtype = getName(xo.dict, 'Subtype');
          if (subtype === 'Image') this.image(s, xo, state.ctm, resources, useColour);
          else if (subtype === 'Form') this.paintForm(s, xo, state.ctm, resources);
          break;
        }
      }
    }
    return s;
  }

  private paintForm(s: Summary, form: PDFStream, ctm: Matrix, resources: PDFDict | undefined): void {
    const inner = this.form(form, resources);
    const m = matrixOf(numbersOf(getArray(form.dict, 'Matrix'))) ?? IDENTITY;
    const toPage = multiply(m, ctm);
    for (const [font, visible] of inner.fonts) s.fonts.set(font, (s.fonts.get(font) ?? false) || visible);
    for (const [space, undefaulted] of inner.colours) s.colours.set(space, (s.colours.get(space) ?? false) || undefaulted);
    for (const img of inner.images) {
      if (s.images.length >= MAX_IMAGES_PER_STREAM) break;
      s.images.push({ ...img, matrix: multiply(img.matrix, toPage) });
    }
    s.undecodable ||= inner.undecodable;
  }

  private image(s: Summary, xo: PDFStream, ctm: Matrix, resources: PDFDict | undefined, useColour: (d: Iterable<DeviceSpace>) => void): void {
    const d = xo.dict;
    const imageMask = getBool(d, 'ImageMask') === true;
    const spaces = imageMask ? new Set<DeviceSpace>() : deviceSpacesOf(this.context, d.get(name('ColorSpace')), resources);
    useColour(spaces);
    if (s.images.length >= MAX_IMAGES_PER_STREAM) return;
    s.images.push({
      image: xo,
      widthPx: getNumber(d, 'Width') ?? 0,
      heightPx: getNumber(d, 'Height') ?? 0,
      matrix: ctm,
      imageMask,
      bitsPerComponent: getNumber(d, 'BitsPerComponent') ?? null,
      deviceSpaces: [...spaces],
    });
  }

  private inlineImage(s: Summary, dictOperand: Operand | undefined, ctm: Matrix, resources: PDFDict | undefined, useColour: (d: Iterable<DeviceSpace>) => void): void {
    const dict = typeof dictOperand === 'object' && dictOperand !== null && 'dict' in dictOperand ? dictOperand.dict : {};
    const imageMask = (dict['IM'] ?? dict['ImageMask']) === true;
    const spaces = imageMask ? new Set<DeviceSpace>() : deviceSpacesOfOperand(this.context, dict['CS'] ?? dict['ColorSpace'], resources);
    useColour(spaces);
    if (s.images.length >= MAX_IMAGES_PER_STREAM) return;
    const num = (v: Operand | undefined) => (typeof v === 'number' ? v : null);
    s.images.push({
      image: null,
      widthPx: num(dict['W'] ?? dict['Width']) ?? 0,
      heightPx: num(dict['H'] ?? dict['Height']) ?? 0,
      matrix: ctm,
      imageMask,
      bitsPerComponent: num(dict['BPC'] ?? dict['BitsPerComponent']),
      deviceSpaces: [...spaces],
    });
  }
}

function emptySummary(): Summary {
  return { fonts: new Map(), colours: new Map(), images: [], undecodable: false };
}

function matrixOf(values: readonly (Operand | number)[] | undefined): Matrix | undefined {
  if (!values || values.length < 6) return undefined;
  const m = values.slice(0, 6);
  return m.every((v) => typeof v === 'number' && Number.isFinite(v)) ? (m as Matrix) : undefined;
}
