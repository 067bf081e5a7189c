/** A page's own problem, shared by both renderers (page-render-pdfium.ts, page-render.ts). */

/** The page cannot be rendered; the message says why, for the customer. */
export class PageFailure extends Error {
  override name = 'PageFailure';
}

export const RENDER_FAILED = 'The page could not be rendered: its content is damaged or uses a feature the renderer does not support.';
