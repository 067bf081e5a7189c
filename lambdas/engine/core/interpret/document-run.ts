/**
 * State shared by everything the interpreter runs for one document: caches
 * (colour spaces, paints, paint states, font metrics, decoded and parsed form
 * content), the operation budget and deadline, and the page being collected
 * with its nesting guard (forms, patterns, glyph procedures, soft masks and
 * annotation appearances currently open).
 */
import { PDFDict, PDFRef, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { operations, reusedOperations, type Operation } from '../content-lexer';
import { decodeStream, getDict } from '../pdf-objects';
import type { Rect } from '../page-boxes';
import { ColourSpaces } from './colour-space-info';
import { fontMetrics, type FontMetrics } from './font-metrics';
import { PaintStates } from './graphics-state';
import type { LimitHit, Within } from './types';
import type { ContentObserver } from './observer';
import { PageCollector } from './page-collector';
import { Paints } from './paint';

export const DEFAULT_MAX_OPERATIONS = 20_000_000;
export const DEFAULT_MAX_DEPTH = 12;
export const DEFAULT_MAX_IMAGES_PER_PAGE = 10_000;
export const DEFAULT_MAX_IMAGES_PER_DOCUMENT = 100_000;
export const DEFAULT_IMAGE_SAMPLING_BYTES = 32 * 1024 * 1024;

export interface InterpretOptions {
  /** Content operators interpreted per document before stopping (forms and glyph procedures count). */
  maxOperations?: number;
  /** Nesting of forms, patterns, glyph procedures and soft masks. */
  maxDepth?: number;
  /** Epoch ms after which interpretation stops with a `time` limit. */
  deadline?: number;
  /** Images listed per page before an `images` limit (default 10 000; Type 3 bitmap fonts draw one per glyph). */
  maxImagesPerPage?: number;
  /** Images listed in the whole document before an `images` limit on every later page (default 100 000). */
  maxImagesPerDocument?: number;
  /**
   * Decoded bytes the document may spend sampling CMYK/spot images (Flate or
   * uncompressed, 8 bpc) for their highest TAC (default 32 MiB; 0 turns
   * sampling off). Images beyond the budget count for TAC only through vectors.
   */
  imageSamplingBytes?: number;
  /** Sees every operation with the state in effect (observer.ts). */
  observer?: ContentObserver;
  /**
   * Also runs, without ink, the annotation appearances a viewer does not show
   * (the other states of N, R and D, hidden annotations, popups, appearances
   * without Rect or BBox), so that an observer sees every content stream a
   * conformance checker judges (annotations.ts).
   */
  everyAppearance?: boolean;
  /**
   * Also runs, without ink, every glyph procedure of a Type 3 font the page
   * shows text in, once per page, not only the glyphs shown (text-show.ts).
   */
  everyGlyph?: boolean;
}

/** Ends interpretation of the current page (budget or deadline); caught per page, never leaves the interpreter. */
export class InterpretStop extends Error {
  constructor(
    readonly limit: Extract<LimitHit['limit'], 'operations' | 'time'>,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Inner contexts win: an image in a form in a soft mask is in the soft mask. */
const WITHIN_RANK: Record<Within, number> = { page: 0, form: 1, annotation: 2, pattern: 3, type3: 4, softmask: 5 };
export const innermost = (outer: Within, inner: Within): Within => (WITHIN_RANK[inner] > WITHIN_RANK[outer] ? inner : outer);

interface ContentSource {
  bytes: Uint8Array | null;
  reason: string | undefined;
  ops: Operation[] | null;
  uses: number;
}

/** Decoded content kept for reuse: forms painted on every page, glyph procedures drawn thousands of times. */
const MAX_CACHED_BYTES_TOTAL = 64 * 1024 * 1024;
const MAX_CACHED_STREAM = 4 * 1024 * 1024;
/** Parsed operations kept for streams used more than once and at most this big. */
const MAX_PARSED_STREAM = 256 * 1024;
const MAX_PARSED_OPERATIONS_TOTAL = 2_000_000;

export class DocumentRun {
  readonly colourSpaces: ColourSpaces;
  readonly paints = new Paints();
  readonly states = new PaintStates();
  readonly maxOperations: number;
  /** Watches every operation (validation's collectors); undefined for preflight. */
  readonly observer: ContentObserver | undefined;
  readonly maxDepth: number;
  readonly deadline: number;
  readonly maxImagesPerPage: number;
  /** Images the document may still list (memory: a Type 3 bitmap font draws an image per glyph). */
  imagesLeft: number;
  /** Decoded image bytes the document may still spend on sampling CMYK images for their TAC. */
  readonly sampling: { bytes: number };
  ops = 0;
  /** Bumped whenever something is recorded; a glyph procedure that records nothing is not run again. */
  notable = 0;
  readonly trivialGlyphs = new WeakSet<PDFStream>();

  page = new PageCollector(0);
  userUnit = 1;
  cropBox: Rect = [0, 0, 612, 792];
  /** Tiling patterns and soft masks already run on this page (once per page is enough to list what they hold). */
  readonly donePerPage = new Set<object>();
  /** See InterpretOptions.everyAppearance. */
  readonly everyAppearance: boolean;
  /** See InterpretOptions.everyGlyph. */
  readonly everyGlyph: boolean;
  private depth = 0;
  private readonly active = new Set<PDFStream>();

  private readonly fonts = new Map<PDFDict, FontMetrics>();
  private readonly sources = new Map<PDFStream, ContentSource>();
  private cachedBytes = 0;
  private parsedOps = 0;

  constructor(
    readonly context: PDFContext,
    options: InterpretOptions,
  ) {
    this.colourSpaces = new ColourSpaces(context);
    this.maxOperations = options.maxOperations ?? DEFAULT_MAX_OPERATIONS;
    this.observer = options.observer;
    this.everyAppearance = options.everyAppearance === true;
    this.everyGlyph = options.everyGlyph === true;
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.deadline = options.deadline ?? Number.POSITIVE_INFINITY;
    this.maxImagesPerPage = options.maxImagesPerPage ?? DEFAULT_MAX_IMAGES_PER_PAGE;
    this.imagesLeft = options.maxImagesPerDocument ?? DEFAULT_MAX_IMAGES_PER_DOCUMENT;
    this.sampling = { bytes: options.imageSamplingBytes ?? DEFAULT_IMAGE_SAMPLING_BYTES };
  }

  startPage(page: number, userUnit: number, cropBox: Rect): PageCollector {
    this.page = new PageCollector(page);
    this.userUnit = userUnit;
    this.cropBox = cropBox;
    this.donePerPage.clear();
    this.depth = 0;
    this.active.clear();
    return this.page;
  }

  /** Opens a nested stream unless it is already open (a cycle) or nesting is too deep; records the limit then. */
  enter(stream: PDFStream, what: string): boolean {
    if (this.active.has(stream)) {
      this.notable++;
      this.page.limit('form-cycle', `${what} paints itself`);
      return false;
    }
    if (this.depth >= this.maxDepth) {
      this.notable++;
      this.page.limit('form-depth', `nesting deeper than ${this.maxDepth} levels (forms, patterns, glyphs, soft masks)`);
      return false;
    }
    this.active.add(stream);
    this.depth++;
    return true;
  }

  leave(stream: PDFStream): void {
    this.active.delete(stream);
    this.depth--;
  }

  fontMetrics(dict: PDFDict): FontMetrics {
    let m = this.fonts.get(dict);
    if (!m) {
      m = fontMetrics(this.context, dict);
      this.fonts.set(dict, m);
    }
    return m;
  }

  /** The operations of a form, pattern or glyph stream, or why it cannot be read. */
  sourceOf(stream: PDFStream): { ops: Iterable<Operation> } | { reason: string } {
    let s = this.sources.get(stream);
    if (!s) {
      const decoded = decodeStream(stream);
      s = { bytes: decoded.bytes, reason: decoded.reason, ops: null, uses: 0 };
      const size = decoded.bytes?.length ?? 0;
      if (size <= MAX_CACHED_STREAM && this.cachedBytes + size <= MAX_CACHED_BYTES_TOTAL) {
        this.cachedBytes += size;
        this.sources.set(stream, s);
      }
    }
    s.uses++;
    if (s.bytes === null) return { reason: s.reason ?? 'corrupt' };
    if (s.ops) return { ops: s.ops };
    if (s.uses >= 2 && s.bytes.length <= MAX_PARSED_STREAM && this.parsedOps < MAX_PARSED_OPERATIONS_TOTAL) {
      s.ops = [...operations(s.bytes)];
      this.parsedOps += s.ops.length;
      return { ops: s.ops };
    }
    return { ops: this.operationsOf(s.bytes) };
  }

  /**
   * The operations of a stream the executor runs once: one reused operation
   * object (reusedOperations), unless an observer is watching, which may keep
   * the operations it is shown.
   */
  operationsOf(bytes: Uint8Array): Iterable<Operation> {
    return this.observer ? operations(bytes) : reusedOperations(bytes);
  }

  /** The object number of an entry of a resource dictionary, when it is a reference. */
  static refNumber(raw: unknown): number | null {
    return raw instanceof PDFRef ? raw.objectNumber : null;
  }

  /** Every font of a resource dictionary: listed as used when a stream using them cannot be read. */
  unreadFonts(resources: PDFDict | undefined): void {
    const fonts = getDict(resources, 'Font');
    if (!fonts) return;
    for (const [, raw] of fonts.entries()) {
      const f = raw instanceof PDFRef ? this.context.lookup(raw) : raw;
      if (f instanceof PDFDict) this.page.unreadFont(f, DocumentRun.refNumber(raw));
    }
  }
}
