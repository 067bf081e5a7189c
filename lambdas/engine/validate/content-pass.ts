/**
 * One reading of all content for every validation area. The content
 * interpreter (core/interpret) runs once per file; each area's collector
 * watches it through the observer interface (core/interpret/observer.ts) and
 * keeps what its rules need: operators and nesting (file structure), colour
 * spaces selected by colour operators (graphics), glyph codes shown per font
 * (fonts), marked-content sequences (logical structure). The page inventories
 * the interpreter builds anyway become `ContentUsage` (fonts used, device
 * colour use, image placements).
 *
 * The pass runs only when a rule first asks for content facts.
 */
import type { Operation } from '../core/content-lexer';
import { scanContent, type ContentUsage } from '../core/content-scan';
import type { PDFDict, PDFStream } from '@cantoo/pdf-lib';
import type { Within } from '../core/interpret/types';
import type { ContentObserver, ObservedStream } from '../core/interpret/observer';
import type { ContentCollector } from './content-collector';
import { CONTENT_COLLECTORS } from './content-collectors';
import { fact } from './fact';
import type { ValidationModel } from './model';

interface PassResult {
  usage: ContentUsage;
  results: Map<ContentCollector<unknown>, unknown>;
}

const contentPass = fact('content-pass', (m): PassResult => {
  const runs = CONTENT_COLLECTORS.map((c) => [c, c.create(m)] as const);
  const observers = runs.map(([, r]) => r);
  const observer: ContentObserver = {
    startPage(page: number, node: PDFDict) {
      for (const o of observers) o.startPage?.(page, node);
    },
    operation(at: ObservedStream, op: Operation) {
      for (const o of observers) o.operation(at, op);
    },
    enterStream(stream: PDFStream, kind: Within, at: ObservedStream) {
      for (const o of observers) o.enterStream?.(stream, kind, at);
    },
    leaveStream(stream: PDFStream, kind: Within) {
      for (const o of observers) o.leaveStream?.(stream, kind);
    },
  };
  // No operation cap and no deadline: a verdict covers all content or is not
  // given (the guarded thread's budget ends a file too big to read in time).
  // Every appearance stream is read, shown or not, and every glyph procedure of
  // a Type 3 font in use: PDF/A's requirements hold for each (veraPDF judges
  // every state of N, D and R of every annotation, and all CharProcs).
  const usage = scanContent(m.doc, { observer, maxOperations: Number.POSITIVE_INFINITY, imageSamplingBytes: 0, everyAppearance: true, everyGlyph: true });
  return { usage, results: new Map(runs.map(([c, r]) => [c as ContentCollector<unknown>, r.result()])) };
});

/** Fonts, device colour use and image placements of all content. */
export const contentUsage = (m: ValidationModel): ContentUsage => contentPass(m).usage;

/** What one collector gathered during the pass. */
export function collected<T>(m: ValidationModel, collector: ContentCollector<T>): T {
  return contentPass(m).results.get(collector as ContentCollector<unknown>) as T;
}
