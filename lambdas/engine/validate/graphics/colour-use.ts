/**
 * Colour spaces selected by colour operators, images, inline images and shadings, with the graphics state in effect (owned by the graphics area).
 */
import type { ContentCollector } from '../content-pass';

export interface ColourUseFacts {
  placeholder?: never;
}

export const colourUse: ContentCollector<ColourUseFacts> = {
  label: 'colourUse',
  create: () => ({
    operation() {},
    result: () => ({}),
  }),
};
