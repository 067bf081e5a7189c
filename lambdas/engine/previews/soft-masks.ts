/**
 * Soft masks (ExtGState /SMask) for pdfjs on @napi-rs/canvas.
 *
 * pdfjs draws a soft mask by painting the mask group on a canvas of its own
 * and then drawing that canvas with `destination-in` onto the masked layer,
 * through a canvas filter that turns the mask into alpha: for a /Luminosity
 * mask the luminosity of each pixel (0.3 R + 0.59 G + 0.11 B) over the
 * mask's backdrop, then the
 * mask's transfer function (/TR) if it has one; for an /Alpha mask only the
 * transfer function. In a browser those filters are SVG filters referenced
 * by `url(#id)`. In Node pdfjs has no SVG and its filter factory answers
 * "none" for every filter, so a luminosity mask was used by its alpha, which
 * is opaque everywhere once pdfjs has filled the backdrop: everything a mask
 * should have hidden or faded (vignettes, feathered edges, gradient fades,
 * masked-out rectangles) was drawn at full strength, often as a black box.
 *
 * Here the filter factory hands out a token per conversion, and the contexts
 * of the canvases pdfjs creates (through MaskingCanvasFactory) apply it
 * themselves: a drawImage under one of our tokens draws the source region
 * converted to alpha in JavaScript instead. Nothing else pdfjs draws goes
 * through a filter of ours.
 *
 * Transfer functions of the graphics state itself (/TR outside a soft mask)
 * apply to every drawing operation and are left out (pdfjs' addFilter
 * answers "none" for them); they are rare and deprecated in PDF 2.0.
 */
import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';

/** How a mask's pixels become alpha. `transfer`: 256 values 0–255, or none. */
interface MaskConversion {
  luminosity: boolean;
  transfer: ArrayLike<number> | null;
}

const TOKEN = /^url\(#proofline-soft-mask-(\d+)\)$/;
/** Conversions by token number, for every document open in this thread. */
const conversions = new Map<number, MaskConversion>();
let nextToken = 1;

/**
 * Given to pdfjs' getDocument as `FilterFactory`; pdfjs makes one per
 * document and destroys it with the document. Same interface as pdfjs'
 * BaseFilterFactory (which pdfjs does not export).
 */
export class SoftMaskFilterFactory {
  /** Tokens of this document, by transfer map (pdfjs caches its maps, so identity is enough). */
  private readonly luminosity = new Map<unknown, string>();
  private readonly alpha = new Map<unknown, string>();

  addAlphaFilter(map: ArrayLike<number>): string {
    return this.token(this.alpha, map, { luminosity: false, transfer: map });
  }

  addLuminosityFilter(map: ArrayLike<number> | null | undefined): string {
    return this.token(this.luminosity, map ?? null, { luminosity: true, transfer: map ?? null });
  }

  addFilter(): string {
    return 'none';
  }

  addHCMFilter(): string {
    return 'none';
  }

  addHighlightHCMFilter(): string {
    return 'none';
  }

  destroy(): void {
    for (const token of [...this.luminosity.values(), ...this.alpha.values()]) conversions.delete(Number(TOKEN.exec(token)![1]));
    this.luminosity.clear();
    this.alpha.clear();
  }

  private token(cache: Map<unknown, string>, key: unknown, conversion: MaskConversion): string {
    let token = cache.get(key);
    if (!token) {
      const n = nextToken++;
      conversions.set(n, conversion);
      token = `url(#proofline-soft-mask-${n})`;
      cache.set(key, token);
    }
    return token;
  }
}

type CanvasAndContext = { canvas: Canvas | null; context: SKRSContext2D | null };

/**
 * Given to getDocument as `CanvasFactory`: @napi-rs/canvas canvases (as pdfjs'
 * own Node factory makes) whose contexts understand our soft-mask filters.
 * pdfjs draws soft masks on canvases from this factory.
 */
export class MaskingCanvasFactory {
  create(width: number, height: number): CanvasAndContext {
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    const canvas = createCanvas(width, height);
    return { canvas, context: withSoftMaskFilters(canvas.getContext('2d')) };
  }

  reset(cc: CanvasAndContext, width: number, height: number): void {
    if (!cc.canvas) throw new Error('Canvas is not specified');
    if (width <= 0 || height <= 0) throw new Error('Invalid canvas size');
    cc.canvas.width = width;
    cc.canvas.height = height;
  }

  destroy(cc: CanvasAndContext): void {
    if (!cc.canvas) throw new Error('Canvas is not specified');
    // Zero size frees the pixels now, not when the collector gets to the object.
    cc.canvas.width = 0;
    cc.canvas.height = 0;
    cc.canvas = null;
    cc.context = null;
  }
}

/** Makes `ctx.drawImage` honour our soft-mask tokens in `ctx.filter`. */
export function withSoftMaskFilters(ctx: SKRSContext2D): SKRSContext2D {
  const draw = ctx.drawImage.bind(ctx) as (...args: unknown[]) => void;
  const patched = (image: unknown, ...args: number[]) => {
    const token = ctx.filter;
    const conversion = conversions.get(Number(TOKEN.exec(token)?.[1]));
    if (!conversion) return draw(image, ...args);
    const [sx, sy, sw, sh, dx, dy, dw, dh] = args.length === 8 ? args : [0, 0, (image as Canvas).width, (image as Canvas).height, args[0]!, args[1]!, args[2] ?? (image as Canvas).width, args[3] ?? (image as Canvas).height];
    const mask = maskOf(image as Canvas, Math.round(sx!), Math.round(sy!), Math.round(sw!), Math.round(sh!), conversion);
    ctx.filter = 'none';
    try {
      if (mask) draw(mask, dx, dy, dw, dh);
    } finally {
      ctx.filter = token;
    }
  };
  Object.defineProperty(ctx, 'drawImage', { value: patched, configurable: true, writable: true });
  return ctx;
}

/** The region of `source` as an alpha-only canvas, per the conversion; null for an empty region. */
function maskOf(source: Canvas, x: number, y: number, width: number, height: number, conversion: MaskConversion): Canvas | null {
  if (width <= 0 || height <= 0) return null;
  const image = source.getContext('2d').getImageData(x, y, width, height);
  const px = image.data;
  const { luminosity, transfer } = conversion;
  for (let i = 0; i < px.length; i += 4) {
    // The mask group over its backdrop: pdfjs has painted the backdrop (/BC)
    // when the mask has one; without, the backdrop is black (PDF 32000 11.6.5.2),
    // so the luminosity is that of the premultiplied colour.
    let a = luminosity ? Math.round(((0.3 * px[i]! + 0.59 * px[i + 1]! + 0.11 * px[i + 2]!) * px[i + 3]!) / 255) : px[i + 3]!;
    if (transfer) a = transfer[a]!;
    px[i] = 0;
    px[i + 1] = 0;
    px[i + 2] = 0;
    px[i + 3] = a;
  }
  const mask = createCanvas(width, height);
  mask.getContext('2d').putImageData(image, 0, 0);
  return mask;
}
