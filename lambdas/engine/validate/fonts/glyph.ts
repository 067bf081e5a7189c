/**
 * A glyph as the font rules see it, and the embedded font program it is
 * looked up in. Apart from font-model.ts so that the reader of composite
 * fonts' glyphs (cid-glyphs.ts) can name them without importing the model
 * that uses it.
 */
import type { CffFont } from './cff';
import type { TrueTypeFont } from './truetype';
import type { Type1Font } from './type1';

export type Program =
  | { kind: 'truetype'; tt: TrueTypeFont; cff: CffFont | null }
  | { kind: 'cff'; cff: CffFont }
  | { kind: 'type1'; t1: Type1Font }
  | { kind: 'unreadable' };

export interface Glyph {
  code: number;
  /** Glyph name through the encoding (simple fonts), when there is one. */
  name: string | undefined;
  /** CID (composite fonts); undefined when a predefined CMap hides it. */
  cid: number | undefined;
  /** The program defines the glyph: true/false, undefined when that cannot be told. */
  present: boolean | undefined;
  /** Width from the font dictionary (Widths, W/DW), in 1000-unit glyph space; undefined when it gives none. */
  dictWidth: number | undefined;
  /** Width from the embedded program; undefined when unknown. */
  programWidth: number | undefined;
}
