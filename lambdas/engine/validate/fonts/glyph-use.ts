/**
 * Glyph codes each font shows and in which rendering modes (owned by the fonts area).
 */
import type { ContentCollector } from '../content-pass';

export interface GlyphUseFacts {
  placeholder?: never;
}

export const glyphUse: ContentCollector<GlyphUseFacts> = {
  label: 'glyphUse',
  create: () => ({
    operation() {},
    result: () => ({}),
  }),
};
