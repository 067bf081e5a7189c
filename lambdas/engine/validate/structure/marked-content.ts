/**
 * Marked-content sequences (tags, MCIDs, artifacts, Lang, ActualText) and content outside them (owned by the logical-structure area).
 */
import type { ContentCollector } from '../content-pass';

export interface MarkedContentFacts {
  placeholder?: never;
}

export const markedContent: ContentCollector<MarkedContentFacts> = {
  label: 'markedContent',
  create: () => ({
    operation() {},
    result: () => ({}),
  }),
};
