/**
 * Graphics other than colour: graphics state parameters and rendering intents
 * (ext-gstate-rules.ts), images and JPEG 2000 data (image-rules.ts), form,
 * reference and PostScript XObjects (xobject-rules.ts) and transparency
 * (transparency-rules.ts). Each rule is data (id, clause per standard part,
 * levels, description) plus one predicate over the model.
 */
import type { Rule } from '../rule';
import { EXT_GSTATE_RULES } from './ext-gstate-rules';
import { IMAGE_RULES } from './image-rules';
import { TRANSPARENCY_RULES } from './transparency-rules';
import { XOBJECT_RULES } from './xobject-rules';

export const GRAPHICS_RULES: readonly Rule[] = [...TRANSPARENCY_RULES, ...EXT_GSTATE_RULES, ...IMAGE_RULES, ...XOBJECT_RULES];
