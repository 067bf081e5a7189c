/**
 * A read-only view into the interpreter for engines that need more than the
 * page inventory: validation asks which operators a stream uses, which glyph
 * codes each font shows, which colour spaces colour operators select and how
 * marked content nests. They watch one interpretation instead of running a
 * second one; the observer sees each operation before the interpreter acts on
 * it, with the state in effect (unknown operators included), and is told when
 * a nested stream (form, pattern, glyph procedure, soft mask, annotation
 * appearance) starts and ends.
 *
 * Observers must not change what they are shown.
 */
import type { PDFDict, PDFObject, PDFStream } from '@cantoo/pdf-lib';
import type { Operation } from '../content-lexer';
import type { Frame, Within } from './types';
import type { GraphicsState } from './graphics-state';

/** What an observer may read of the executor running a stream. */
export interface ObservedStream {
  readonly gs: GraphicsState;
  readonly frame: Frame;
  /** The resources the stream's names resolve against (own or inherited). */
  readonly resources: PDFDict | undefined;
  /** 1-based page number being interpreted. */
  readonly pageNumber: number;
  /** Looks up a resource by category and name as the interpreter does (null when absent). */
  resource(category: 'Font' | 'XObject' | 'ExtGState' | 'ColorSpace' | 'Pattern' | 'Shading' | 'Properties', key: string): { obj: PDFObject | undefined; objectNumber: number | null };
}

export interface ContentObserver {
  /** A page starts (1-based); its content, then its annotations' appearances, follow. */
  startPage?(page: number, node: PDFDict): void;
  /** Every operation of every stream run, before the interpreter acts on it. */
  operation(at: ObservedStream, op: Operation): void;
  /** A nested stream starts (after its own resources are resolved) and ends. */
  enterStream?(stream: PDFStream, kind: Within, at: ObservedStream): void;
  leaveStream?(stream: PDFStream, kind: Within): void;
}
