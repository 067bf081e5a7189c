/**
 * The contract every fix implements: change the loaded document in place and
 * say how many things changed on which pages. A fix that finds nothing to
 * change returns count 0 and the document untouched.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../domain/model';

export interface FixOutcome {
  count: number;
  /** 1-based pages where something changed (document-level changes add none). */
  pages: number[];
  /** What `count` counts, for logs and runtimeParams. */
  detail: string;
}

export type Fix = (doc: PDFDocument, context: OrderContext | null) => FixOutcome;
