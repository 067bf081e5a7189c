/**
 * Reads the table `pdffonts` prints (poppler-utils 22.x, utils/pdffonts.cc):
 *
 *   name                                 type              encoding         emb sub uni object ID
 *   ------------------------------------ ----------------- ---------------- --- --- --- ---------
 *   ABCDEE+Calibri                       TrueType          WinAnsi          yes yes no       5  0
 *   Courier                              Type 1            Standard         no  no  no  [none]
 *
 * Columns are printf'ed as `%-36s %-17s %-16s %-3s %-3s %-3s` then ` %6d %2d` or
 * ` [none]`, so a name longer than 36 characters shifts the rest of the row
 * (seen in the pdfjs corpus: `IDJQBD+CourierNew,Bold-WinCharSetFFFF`). Rows are
 * therefore read from the right: the object id, the three yes/no flags, and the
 * type found among poppler's fixed list of type names, longest first so that
 * `Type 1C (OT)` is not read as `Type 1`.
 *
 * What poppler lists (poppler/FontInfo.cc): the fonts of each page's resources,
 * of the resources of XObjects and patterns reachable from them (recursively),
 * and of annotation appearance resources — not the resources of Type 3 glyph
 * procedures. Each font object once per file. A font written as a direct
 * dictionary has no object number; poppler prints `[none]` for it. Type 3 fonts
 * are always `emb yes`; other fonts are embedded when their descriptor has a
 * FontFile/FontFile2/FontFile3 entry that is a reference.
 */

export interface PopplerFontRow {
  /** BaseFont as written (with a subset prefix); null when poppler prints `[none]`. */
  name: string | null;
  /** Poppler's type name: `Type 1`, `Type 1C`, `TrueType`, `CID Type 0C`, `Type 3`… */
  type: string;
  encoding: string;
  embedded: boolean;
  subset: boolean;
  toUnicode: boolean;
  /** Null for a font written as a direct object (`[none]`). */
  objectNumber: number | null;
  generation: number | null;
}

/** utils/pdffonts.cc fontTypeNames, longest first for the row pattern. */
const TYPE_NAMES = [
  'CID TrueType (OT)',
  'CID Type 0C (OT)',
  'CID TrueType',
  'CID Type 0C',
  'CID Type 0',
  'TrueType (OT)',
  'TrueType',
  'Type 1C (OT)',
  'Type 1C',
  'Type 1',
  'Type 3',
  'unknown',
];

const escape = (s: string) => s.replace(/[()]/g, '\\$&');
const ROW = new RegExp(
  `^(.*?) +(${TYPE_NAMES.map(escape).join('|')}) +(.*?) +(yes|no) +(yes|no) +(yes|no) +(?:(\\d+) +(\\d+)|\\[none\\]) *$`,
);

/** Every font row of a `pdffonts` run; header, rule and any other line are skipped. */
export function parsePdffonts(stdout: string): PopplerFontRow[] {
  const rows: PopplerFontRow[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = ROW.exec(line);
    if (!m) continue;
    const name = m[1]!.trim();
    rows.push({
      name: name === '[none]' ? null : name,
      type: m[2]!,
      encoding: m[3]!.trim(),
      embedded: m[4] === 'yes',
      subset: m[5] === 'yes',
      toUnicode: m[6] === 'yes',
      objectNumber: m[7] === undefined ? null : Number(m[7]),
      generation: m[8] === undefined ? null : Number(m[8]),
    });
  }
  return rows;
}
