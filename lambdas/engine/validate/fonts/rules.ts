/**
 * Fonts: font dictionaries, composite fonts, embedding and subsets, widths,
 * TrueType encodings, Unicode mapping, ActualText and .notdef (PDF/A-1 6.3,
 * PDF/A-2/3 6.2.11, PDF/A-4 6.2.10, PDF/UA-1 7.21, PDF/UA-2 8.4.5), and the
 * Private Use Area in content and text strings (PDF/UA-2 8.4.3, 8.6). Each rule is data (id,
 * clause per standard part, levels, description) plus one predicate over the
 * fonts that show text (font-model.ts, fed by the glyph-use collector).
 */
import type { Rule } from '../rule';
import { COMPOSITE_FONT_RULES } from './composite-rules';
import { FONT_DICTIONARY_RULES } from './dictionary-rules';
import { EMBEDDING_RULES } from './embedding-rules';
import { METRICS_ENCODING_RULES } from './metrics-encoding-rules';
import { PUA_RULES } from './pua-rules';
import { UNICODE_RULES } from './unicode-rules';

export const FONT_RULES: readonly Rule[] = [...COMPOSITE_FONT_RULES, ...EMBEDDING_RULES, ...METRICS_ENCODING_RULES, ...UNICODE_RULES, ...FONT_DICTIONARY_RULES, ...PUA_RULES];
