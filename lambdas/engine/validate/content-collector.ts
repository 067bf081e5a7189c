/**
 * What an area watches the shared content pass (content-pass.ts) with. An
 * area's collector module depends on this shape only, never on the pass
 * itself: the pass imports the collector list (content-collectors.ts), so a
 * collector importing the pass would close an import cycle in which a
 * collector can be read before it is initialised.
 */
import type { ContentObserver } from '../core/interpret/observer';
import type { ValidationModel } from './model';

/** What an area watches content with: a fresh observer per model, read after the pass. */
export interface ContentCollector<T> {
  readonly label: string;
  create(m: ValidationModel): CollectorRun<T>;
}

export interface CollectorRun<T> extends ContentObserver {
  result(): T;
}
