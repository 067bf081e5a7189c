/**
 * Composite (Type 0) fonts: the CIDFont's character collection agrees with
 * the CMap's, TrueType-based CIDFonts say how CIDs become glyph indices, and
 * CMaps travel with the file unless every reader has them.
 */
import { PDFArray, PDFDict, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { getName, getNumber, getText, name, resolve, streamBytes } from '../../core/pdf-objects';
import type { ValidationModel } from '../model';
import type { Example, Rule } from '../rule';
import { CLAUSES, isPdfA1, PREDEFINED_CMAPS, predefinedOrdering } from './clauses';
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

function cmapProblems(m: ValidationModel, f: FontFacts, pdfa1: boolean): string | null {
  const enc = resolve(m.context, f.dict.get(name('Encoding')));
  const known = (n: string): boolean => (pdfa1 ? /^Identity-[HV]$/.test(n) : PREDEFINED_CMAPS.has(n));
  if (enc instanceof PDFName) return known(enc.decodeText()) ? null : `CMap ${enc.decodeText()} is neither predefined nor embedded`;
  if (!(enc instanceof PDFStream)) return null;
  const program = streamBytes(enc);
  const text = program ? new TextDecoder('latin1').decode(program) : '';
  const stated = /\/WMode\s+(\d+)\s+def/.exec(text);
  const programWMode = stated ? Number(stated[1]) : 0;
  const dictWMode = getNumber(enc.dict, 'WMode') ?? 0;
  if (programWMode !== dictWMode) return `the CMap dictionary's WMode ${dictWMode} differs from its program's ${programWMode}`;
  const uses = resolve(m.context, enc.dict.get(name('UseCMap')));
  if (uses instanceof PDFName && !known(uses.decodeText())) return `the CMap uses ${uses.decodeText()}, which is not predefined`;
  if (!pdfa1 && uses instanceof PDFStream) return 'the CMap uses another embedded CMap; only predefined CMaps may be referenced';
  if (!pdfa1) {
    const used = /\/([^\s/]+)\s+usecmap/.exec(text);
    if (used && !(uses instanceof PDFStream) && !PREDEFINED_CMAPS.has(used[1]!)) return `the CMap program uses ${used[1]}, which is not predefined`;
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
