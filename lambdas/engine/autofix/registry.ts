/**
 * The implementation of each fix in the catalogue (engine/fix-catalogue/), by
 * id. A test holds the two equal: no entry without an implementation, no
 * implementation the catalogue does not describe.
 */
import { CONTENT_FIX_IMPLEMENTATIONS } from './content';
import { checkThreshold, type Fix } from './fix';
import { removeActions } from './fix-actions';
import { normalizeBoxes } from './fix-boxes';
import { IMAGE_FIX_IMPLEMENTATIONS } from './images';
import { INTERACTIVE_FIX_IMPLEMENTATIONS } from './interactive';
import { PAGE_FIX_IMPLEMENTATIONS } from './pages';
import { STANDARDS_FIX_IMPLEMENTATIONS } from './standards';

export const FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {
  ...PAGE_FIX_IMPLEMENTATIONS,
  ...INTERACTIVE_FIX_IMPLEMENTATIONS,
  ...CONTENT_FIX_IMPLEMENTATIONS,
  ...IMAGE_FIX_IMPLEMENTATIONS,
  ...STANDARDS_FIX_IMPLEMENTATIONS,
  'boxes.normalize': (doc, ctx) => normalizeBoxes(doc, ctx.order, checkThreshold(ctx, 'bleed.insufficient', 'required_mm')),
  'actions.remove': (doc, ctx) => removeActions(doc, { uri: ctx.params.uri === true }),
};
