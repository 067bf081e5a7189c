/**
 * The implementation of each fix in the catalogue (engine/fix-catalogue/), by
 * id. A test holds the two equal: no entry without an implementation, no
 * implementation the catalogue does not describe.
 */
import type { Fix } from './fix';
import { removeActions } from './fix-actions';
import { normalizeBoxes } from './fix-boxes';

export const FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {
  'boxes.normalize': (doc, ctx) => normalizeBoxes(doc, ctx.order),
  'actions.remove': (doc, ctx) => removeActions(doc, { uri: ctx.params.uri === true }),
};
