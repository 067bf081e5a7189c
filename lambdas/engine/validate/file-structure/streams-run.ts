/**
 * The nested content streams the content pass ran (forms, annotation
 * appearances, patterns, Type 3 glyph procedures, soft mask groups), each with
 * the first page it was run for. The implementation limits hold for the values
 * in every content stream a reader interprets, whatever its dictionary says:
 * an appearance stream may omit /Subtype /Form, and a Type 3 font may be a
 * direct object of a resource dictionary (content-values.ts).
 */
import type { PDFStream } from '@cantoo/pdf-lib';
import type { ContentCollector } from '../content-collector';

export const streamsRun: ContentCollector<Map<PDFStream, number>> = {
  label: 'streamsRun',
  create: () => {
    const seen = new Map<PDFStream, number>();
    let page = 0;
    return {
      startPage: (n: number) => {
        page = n;
      },
      operation: () => {},
      enterStream: (stream: PDFStream) => {
        if (!seen.has(stream)) seen.set(stream, page);
      },
      result: () => seen,
    };
  },
};
