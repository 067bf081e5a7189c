/**
 * Where our rendering corrections meet pdfjs' canvas renderer.
 *
 * pdfjs exports no hooks into how it draws a glyph or a path, so two methods
 * of its canvas renderer (CanvasGraphics, not exported either) are wrapped:
 *
 * - `paintChar`: each painted glyph's origin snapped to the pixel grid
 *   (glyph-snapping.ts);
 * - `constructPath`: thin axis-aligned strokes and filled rectangles adjusted
 *   to whole pixels (stroke-adjust.ts).
 *
 * The prototype is reached through the first render task of the thread:
 * pdfjs calls a task's `onContinue` after creating its renderer and before
 * drawing anything. pdfjs dispatches operators by number (it copies each
 * method to `prototype[OPS.name]`), so `constructPath` is replaced under both
 * keys. The wrappers only change the arguments they pass on. A pdfjs upgrade
 * that renames any of this is caught by the rendering cases of
 * test/unit/engine/previews/{glyph-snapping,stroke-adjust}.test.ts.
 */
import { OPS, type RenderTask } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ADD_TO_CLIP, snappedOrigin, type Matrix } from './glyph-snapping';
import { adjustRectangleFill, adjustStroke } from './stroke-adjust';

type Method = (this: Graphics, ...args: never[]) => unknown;

interface Graphics {
  ctx: { getTransform(): Matrix };
  current: { textRenderingMode?: number; lineWidth: number };
  _cachedScaleForStroking?: number[];
  [key: string | number]: unknown;
}

const WRAPPED = Symbol.for('proofline.canvasHook');
let installed = false;

/** `proto[key]` replaced by `make(original)`, once. */
function wrap(proto: Graphics, keys: (string | number)[], make: (original: Method) => Method): void {
  const original = proto[keys[0]!] as Method | undefined;
  if (typeof original !== 'function' || (original as { [WRAPPED]?: true })[WRAPPED]) return;
  const wrapped = Object.assign(make(original), { [WRAPPED]: true });
  for (const key of keys) proto[key] = wrapped;
}

function install(proto: Graphics): void {
  wrap(proto, ['paintChar'], (original) =>
    function (this: Graphics, opIdx: number, character: string, x: number, y: number, ...rest: unknown[]) {
      const mode = this.current.textRenderingMode ?? 0;
      const [sx, sy] = mode & ADD_TO_CLIP ? [x, y] : snappedOrigin(this.ctx.getTransform(), x, y);
      return (original as (...a: unknown[]) => unknown).call(this, opIdx, character, sx, sy, ...rest);
    } as Method,
  );
  wrap(proto, ['constructPath', OPS.constructPath], (original) =>
    function (this: Graphics, opIdx: number, op: number, data: unknown[], minMax: unknown) {
      const call = (d: unknown[]) => (original as (...a: unknown[]) => unknown).call(this, opIdx, op, d, minMax);
      const ops = data?.[0] as ArrayLike<number> | undefined;
      // Raw path data only (pdfjs turns it into a Path2D on first use); no bounds means an empty path.
      if (!minMax || !ops || typeof ops !== 'object' || typeof ops.length !== 'number') return call(data);
      const fill = op === OPS.fill || op === OPS.eoFill;
      if (!fill && op !== OPS.stroke && op !== OPS.closeStroke) return call(data); // clips, fill-and-stroke: as drawn
      const m = this.ctx.getTransform();
      if (fill) {
        const rect = adjustRectangleFill(ops, m);
        return call(rect ? [rect, ...data.slice(1)] : data);
      }
      const stroke = adjustStroke(ops, m, this.current.lineWidth);
      if (!stroke) return call(data);
      const saved = this.current.lineWidth;
      // pdfjs caches the stroke scale derived from the line width.
      const resetScale = () => {
        if (this._cachedScaleForStroking) this._cachedScaleForStroking[0] = -1;
      };
      this.current.lineWidth = stroke.lineWidth;
      resetScale();
      try {
        return call([stroke.ops, ...data.slice(1)]);
      } finally {
        this.current.lineWidth = saved;
        resetScale();
      }
    } as Method,
  );
}

/**
 * Applies our corrections to this and every later render in the thread.
 * Call right after `page.render(…)`, before awaiting the task.
 */
export function hookCanvas(task: RenderTask): void {
  if (installed) return;
  const internal = (task as unknown as { _internalRenderTask?: { gfx?: Graphics } })._internalRenderTask;
  const previous = task.onContinue;
  task.onContinue = (cont: () => void) => {
    const gfx = internal?.gfx;
    if (!installed && gfx) {
      install(Object.getPrototypeOf(gfx) as Graphics);
      installed = true;
    }
    task.onContinue = previous;
    if (previous) previous(cont);
    else cont();
  };
}

/** Whether the hooks are in place in this thread (for tests). */
export function canvasHooked(): boolean {
  return installed;
}
