/**
 * Composite (Type 0) fonts: the CIDFont's character collection agrees with
 * the CMap's, TrueType-based CIDFonts say how CIDs become glyph indices, and
 * CMaps travel with the file unless every reader has them.
 */
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNull, PDFStream, PDFString, type PDFObject } from '@cantoo/pdf-lib';
import { getName, getNumber, getText, name, resolve, streamBytes } from '../../core/pdf-objects';
import type { ValidationModel } from '../model';
import type { Example, Rule } from '../rule';
import { CLAUSES, isPdfA1, PREDEFINED_CMAPS, predefinedOrdering } from './clauses';
import { cmapProgramWMode } from './cmap-program';
import { eachOf, fontExample, fontFacts, type FontFacts } from './font-model';

interface SystemInfo {
  registry: string | undefined;
  ordering: string | undefined;
  supplement: number | undefined;
}

function systemInfo(m: ValidationModel, d: PDFDict | undefined): SystemInfo | null {
  let v = resolve(m.context, d?.get(name('CIDSystemInfo')));
  // Some CMaps give an array of systems (one per usecmap level); the first is theirs.
  if (v instanceof PDFArray) v = resolve(m.context, v.get(0));
  if (!(v instanceof PDFDict)) return null;
  return { registry: getText(v, 'Registry'), ordering: getText(v, 'Ordering'), supplement: getNumber(v, 'Supplement') };
}

const type0 = (m: ValidationModel): FontFacts[] => fontFacts(m).filter((f) => f.info.type === 'Type0');

function cidSystemInfoOk(m: ValidationModel, f: FontFacts, pdfa1: boolean): boolean {
  const enc = resolve(m.context, f.dict.get(name('Encoding')));
  if (enc instanceof PDFName && /^Identity-[HV]$/.test(enc.decodeText())) return true;
  const font = systemInfo(m, f.descendant);
  if (!font || font.registry === undefined || font.ordering === undefined) return false;
  let cmap: SystemInfo | null = null;
  if (enc instanceof PDFStream) {
    cmap = systemInfo(m, enc.dict);
    if (!cmap) {
      const uses = resolve(m.context, enc.dict.get(name('UseCMap')));
      if (uses instanceof PDFName && /^Identity-[HV]$/.test(uses.decodeText())) return true;
    }
  } else if (enc instanceof PDFName) {
    const ord = predefinedOrdering(enc.decodeText());
    // A predefined CMap's supplement grows with new versions: readers use the newest, so it is never the smaller.
    if (ord) cmap = { registry: ord.split('-')[0], ordering: ord.split('-')[1], supplement: Number.MAX_SAFE_INTEGER };
  }
  if (!cmap) return false;
  if (cmap.registry !== font.registry || cmap.ordering !== font.ordering) return false;
  if (pdfa1) return true;
  return font.supplement !== undefined && cmap.supplement !== undefined && font.supplement <= cmap.supplement;
}

/**
 * The name a CMap goes by: a predefined CMap's name, or an embedded CMap
 * stream's CMapName entry ('' when it has none). veraPDF judges a referenced
 * CMap by this name only, not by what its program calls itself.
 */
function cmapName(m: ValidationModel, cmap: PDFObject | undefined): string {
  if (cmap instanceof PDFName) return cmap.decodeText();
  if (cmap instanceof PDFStream) {
    const n = resolve(m.context, cmap.dict.get(name('CMapName')));
    if (n instanceof PDFName) return n.decodeText();
    if (n instanceof PDFString || n instanceof PDFHexString) return n.decodeText();
  }
  return '';
}

/**
 * The font's CMap and every CMap it reaches through UseCMap entries, judged
 * one after the other as veraPDF's CMap objects are (PDCMap, and
 * PDReferencedCMap, which is a PDCMap too, with their CMapFile):
 * - each is predefined (PDF/A-1: Identity-H or -V only) or embedded;
 * - an embedded one has the same WMode in its dictionary and its program;
 * - (PDF/A-2 and later) a referenced one is named like a predefined CMap,
 *   whether it is given by name or as a stream whose CMapName is predefined
 *   (an embedded copy of a predefined CMap is still that CMap).
 * Only the UseCMap entry counts as a reference: veraPDF does not judge the
 * operand of the program's own `usecmap` operator, and neither do we.
 */
function cmapProblems(m: ValidationModel, f: FontFacts, pdfa1: boolean): string | null {
  const known = (n: string): boolean => (pdfa1 ? /^Identity-[HV]$/.test(n) : PREDEFINED_CMAPS.has(n));
  const seen = new Set<PDFObject>();
  let cmap: PDFObject | undefined = resolve(m.context, f.dict.get(name('Encoding')));
  // Encoding that is neither a name nor a stream is not a CMap: other rules judge it.
  if (!(cmap instanceof PDFName || cmap instanceof PDFStream)) return null;
  for (let referenced = false; cmap !== undefined && !seen.has(cmap); referenced = true) {
    seen.add(cmap);
    const cmapLabel = cmapName(m, cmap) || '(unnamed)';
    if (!(cmap instanceof PDFStream)) {
      if (known(cmapName(m, cmap))) return null;
      return referenced ? `the CMap uses ${cmapLabel}, which is neither predefined nor embedded` : `CMap ${cmapLabel} is neither predefined nor embedded`;
    }
    if (referenced && !pdfa1 && !PREDEFINED_CMAPS.has(cmapName(m, cmap))) return `the CMap uses the embedded CMap ${cmapLabel}; only predefined CMaps may be referenced`;
    const program = streamBytes(cmap);
    const programWMode = program ? cmapProgramWMode(program) : 0;
    const dictWMode = getNumber(cmap.dict, 'WMode') ?? 0;
    if (programWMode !== dictWMode) return `the CMap ${cmapLabel} has WMode ${dictWMode} in its dictionary but ${programWMode} in its program`;
    cmap = resolve(m.context, cmap.dict.get(name('UseCMap')));
    if (cmap === PDFNull) cmap = undefined;
  }
  return null;
}

export const COMPOSITE_FONT_RULES: readonly Rule[] = [
  {
    id: 'fonts.cid-system-info',
    clauses: CLAUSES.cidSystemInfo,
    description: (p) =>
      isPdfA1(p)
        ? 'The CIDSystemInfo Registry and Ordering of a composite font\'s CIDFont and of its CMap shall be the same (unless the CMap is Identity-H or Identity-V).'
        : 'The CIDSystemInfo of a composite font\'s CIDFont and of its CMap shall name the same Registry and Ordering, and the CIDFont\'s Supplement shall not exceed the CMap\'s (unless the CMap is Identity-H or Identity-V).',
    test: (m, p) => eachOf(type0(m), (f) => cidSystemInfoOk(m, f, isPdfA1(p)), (f) => fontExample(f, 'CIDFont and CMap character collections disagree')),
  },
  {
    id: 'fonts.cid-to-gid-map',
    clauses: CLAUSES.cidToGid,
    description: (p) =>
      isPdfA1(p)
        ? 'A Type 2 CIDFont used for rendering shall have a CIDToGIDMap entry (a stream, or the name Identity).'
        : 'An embedded Type 2 CIDFont shall have a CIDToGIDMap entry (a stream, or the name Identity).',
    test: (m, p) =>
      eachOf(
        type0(m).filter((f) => getName(f.descendant, 'Subtype') === 'CIDFontType2' && (isPdfA1(p) ? f.visible : f.programStream !== undefined)),
        (f) => {
          const v = resolve(m.context, f.descendant!.get(name('CIDToGIDMap')));
          return v instanceof PDFStream || (v instanceof PDFName && v.decodeText() === 'Identity');
        },
        (f) => fontExample(f, 'CIDFontType2 without CIDToGIDMap'),
      ),
  },
  {
    id: 'fonts.cmaps',
    clauses: CLAUSES.cmaps,
    description: (p) =>
      isPdfA1(p)
        ? 'Every CMap other than Identity-H and Identity-V shall be embedded, with the same WMode in its dictionary and its program.'
        : 'Every CMap that is not one of the predefined CMaps of ISO 32000 shall be embedded, shall have the same WMode in its dictionary and its program, and shall reference no CMap other than a predefined one.',
    test: (m, p) => {
      const failures: Example[] = [];
      const fonts = type0(m);
      for (const f of fonts) {
        const problem = cmapProblems(m, f, isPdfA1(p));
        if (problem) failures.push(fontExample(f, problem));
      }
      return { checked: fonts.length, failures };
    },
  },
];
