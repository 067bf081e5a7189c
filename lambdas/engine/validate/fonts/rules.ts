/**
 * Fonts: embedding, subsets, widths, CMaps, encodings, Unicode mapping, Type 3, .notdef.
 * Each rule is data (id, clause per standard part, levels, description) plus one predicate over the model.
 */
import type { FontInfo } from '../../core/fonts';
import { eachOf, type Rule } from '../rule';

export const FONT_RULES: readonly Rule[] = [
  {
    id: 'pdfa.fonts.embedded',
    clauses: { 1: '6.3.4', 2: '6.2.11.4.1', 3: '6.2.11.4.1', 4: '6.2.10.4.1' },
    description: 'The font programs of all fonts used for rendering shall be embedded (text in rendering mode 3, invisible, is exempt).',
    test: (f) => eachOf(f.fonts.filter((u) => u.visible), (u) => u.info.embedded, (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} (${u.info.type}) is not embedded` })),
  },
  {
    id: 'pdfa.fonts.unicode',
    clauses: { 1: '6.3.8', 2: '6.2.11.7.2', 3: '6.2.11.7.2' },
    levels: ['a', 'u'],
    description: 'Every font shall map its character codes to Unicode, through a ToUnicode CMap or a standard encoding.',
    test: (f) => eachOf(f.fonts, (u) => mapsToUnicode(u.info), (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} has no ToUnicode map` })),
  },
  {
    id: 'pdfua.fonts.embedded',
    clauses: { ua1: '7.21.4.1', ua2: '8.4.5.5.1' },
    description: 'The font programs of all fonts used for rendering shall be embedded (text in rendering mode 3 is exempt).',
    test: (f) => eachOf(f.fonts.filter((u) => u.visible), (u) => u.info.embedded, (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} (${u.info.type}) is not embedded` })),
  },
  {
    id: 'pdfua.fonts.unicode',
    clauses: { ua1: '7.21.7' },
    description: 'Every font shall map its character codes to Unicode, through a ToUnicode CMap or a standard encoding.',
    test: (f) => eachOf(f.fonts, (u) => mapsToUnicode(u.info), (u) => ({ page: u.pages[0], ...(u.objectNumber ? { objectNumber: u.objectNumber } : {}), context: `font ${u.info.name} has no ToUnicode map` })),
  },
];

const STANDARD_ENCODINGS = ['WinAnsiEncoding', 'MacRomanEncoding', 'StandardEncoding', 'MacExpertEncoding'];
const PREDEFINED_CJK = ['Adobe-GB1', 'Adobe-CNS1', 'Adobe-Japan1', 'Adobe-Korea1'];

/** ToUnicode, or a mechanism of ISO 32000-1 9.10.2 that maps codes to Unicode without one. */
export function mapsToUnicode(font: FontInfo): boolean {
  if (font.hasToUnicode) return true;
  if (font.type === 'Type0') return font.cidOrdering !== null && PREDEFINED_CJK.includes(font.cidOrdering) && font.encoding !== null && !font.encoding.startsWith('Identity');
  if (font.type === 'Type3') return false;
  if (font.standard14 && (font.name === 'Symbol' || font.name === 'ZapfDingbats')) return true;
  return font.encoding !== null && STANDARD_ENCODINGS.includes(font.encoding) && !font.hasDifferences;
}
