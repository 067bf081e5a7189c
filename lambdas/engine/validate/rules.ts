/** Every validation rule, by area. A profile applies those with a clause for its part (rulesFor in index.ts). */
import { FILE_STRUCTURE_RULES } from './file-structure/rules';
import { FONT_RULES } from './fonts/rules';
import { COLOUR_RULES } from './graphics/colour-rules';
import { GRAPHICS_RULES } from './graphics/rules';
import { INTERACTIVE_RULES } from './interactive/rules';
import { METADATA_RULES } from './metadata/rules';
import type { Rule } from './rule';
import { LANGUAGE_RULES } from './structure/language-rules';
import { STRUCTURE_RULES } from './structure/rules';

export const ALL_RULES: readonly Rule[] = [...FILE_STRUCTURE_RULES, ...COLOUR_RULES, ...GRAPHICS_RULES, ...FONT_RULES, ...METADATA_RULES, ...INTERACTIVE_RULES, ...STRUCTURE_RULES, ...LANGUAGE_RULES];
