/**
 * Document-level syntax: names that must be UTF-8 (PDF/A-2/3 6.1.8, PDF/A-4
 * 6.1.7), the permissions dictionary (PDF/A-2/3 6.1.12, PDF/A-4 6.1.11), the
 * catalog Version (PDF/A-4 6.1.12) and Requirements (PDF/A-2/3 6.11, PDF/A-4 6.12).
 */
import { PDFArray, PDFDict, PDFName, PDFStream } from '@cantoo/pdf-lib';
import { getDict, getName, has, resolve } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { condition, eachOf, type Rule } from '../rule';
import { reachableObjects } from './syntax-scan';

interface NamedValue {
  role: string;
  name: PDFName;
  objectNumber: number | undefined;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
function isUtf8(n: PDFName): boolean {
  try {
    utf8.decode(Uint8Array.from(n.asBytes()));
    return true;
  } catch {
    return false;
  }
}

/**
 * Names the standard requires to be UTF-8: font names (BaseFont, FontName),
 * colourant names of Separation and DeviceN spaces, and structure types
 * (of elements, and both sides of the role map).
 */
const textualNames = fact('file-structure/textual-names', (m): NamedValue[] => {
  const out: NamedValue[] = [];
  const reachable = reachableObjects(m);
  for (const [ref, obj] of m.context.enumerateIndirectObjects()) {
    if (!reachable.has(ref.objectNumber)) continue;
    const dict = obj instanceof PDFStream ? obj.dict : obj;
    if (dict instanceof PDFDict) {
      for (const key of ['BaseFont', 'FontName']) {
        const v = dict.get(PDFName.of(key));
        if (v instanceof PDFName) out.push({ role: key, name: v, objectNumber: ref.objectNumber });
      }
      const type = getName(dict, 'Type');
      const s = dict.get(PDFName.of('S'));
      if ((type === 'StructElem' || (type === undefined && has(dict, 'P') && has(dict, 'K'))) && s instanceof PDFName) out.push({ role: 'structure type', name: s, objectNumber: ref.objectNumber });
    }
    collectColourants(obj, ref.objectNumber, out, 0);
  }
  const roleMap = getDict(getDict(m.catalog, 'StructTreeRoot'), 'RoleMap');
  // A role map's values are structure types too (what a custom type maps to): veraPDF judges both sides.
  if (roleMap) {
    for (const [k, v] of roleMap.entries()) {
      out.push({ role: 'structure type', name: k, objectNumber: undefined });
      const mapped = resolve(m.context, v);
      if (mapped instanceof PDFName) out.push({ role: 'structure type', name: mapped, objectNumber: undefined });
    }
  }
  return out;
});

function collectColourants(obj: unknown, objectNumber: number, out: NamedValue[], depth: number): void {
  if (depth > 6) return;
  if (obj instanceof PDFArray) {
    const first = obj.get(0);
    if (first instanceof PDFName) {
      const family = first.decodeText();
      const second = obj.get(1);
      if (family === 'Separation' && second instanceof PDFName) out.push({ role: 'colourant', name: second, objectNumber });
      if (family === 'DeviceN' && second instanceof PDFArray) for (const x of second.asArray()) if (x instanceof PDFName) out.push({ role: 'colourant', name: x, objectNumber });
    }
    for (const x of obj.asArray()) if (x instanceof PDFArray || x instanceof PDFDict) collectColourants(x, objectNumber, out, depth + 1);
  } else if (obj instanceof PDFDict || obj instanceof PDFStream) {
    const d = obj instanceof PDFStream ? obj.dict : obj;
    for (const [, v] of d.entries()) if (v instanceof PDFArray || v instanceof PDFDict) collectColourants(v, objectNumber, out, depth + 1);
  }
}

function permsEntries(m: ValidationModel): string[] {
  const perms = getDict(m.catalog, 'Perms');
  return perms ? perms.keys().map((k) => k.decodeText()) : [];
}

export const DOCUMENT_RULES: readonly Rule[] = [
  {
    id: 'pdfa.name.utf8',
    clauses: { 2: '6.1.8', 3: '6.1.8', 4: '6.1.7' },
    description: 'Font names, colourant names of Separation and DeviceN colour spaces, and structure type names shall be valid UTF-8 after #xx escapes are expanded.',
    test: (f) =>
      eachOf(
        textualNames(f),
        (n) => isUtf8(n.name),
        (n) => ({ ...(n.objectNumber !== undefined ? { objectNumber: n.objectNumber } : {}), context: `${n.role} ${n.name.asString()}` }),
      ),
  },
  {
    id: 'pdfa.perms.keys',
    clauses: { 2: '6.1.12', 3: '6.1.12', 4: '6.1.11' },
    description: 'A permissions dictionary shall contain no keys other than UR3 and DocMDP.',
    test: (f) => {
      const other = permsEntries(f).filter((k) => k !== 'UR3' && k !== 'DocMDP');
      return condition(other.length === 0, { context: `Perms has ${other.join(', ')}` });
    },
  },
  {
    id: 'pdfa.perms.docmdp-digest',
    clauses: { 2: '6.1.12', 3: '6.1.12' },
    description: 'When DocMDP is present, signature reference dictionaries shall not contain DigestLocation, DigestMethod or DigestValue.',
    test: (f) => {
      const perms = getDict(f.catalog, 'Perms');
      const sig = getDict(perms, 'DocMDP');
      if (!sig) return condition(true);
      const refs = resolve(f.context, sig.get(PDFName.of('Reference')));
      const list = refs instanceof PDFArray ? refs.asArray().map((r) => resolve(f.context, r)) : [];
      const dicts = list.filter((d): d is PDFDict => d instanceof PDFDict);
      return eachOf(
        dicts,
        (d) => !['DigestLocation', 'DigestMethod', 'DigestValue'].some((k) => has(d, k)),
        () => ({ objectNumber: f.objectNumbers.of(sig), context: 'signature reference has digest entries' }),
      );
    },
  },
  {
    id: 'pdfa.catalog.version',
    clauses: { 4: '6.1.12' },
    description: 'The Version entry of the document catalog, if present, shall be "2." followed by a single digit.',
    test: (f) => {
      const v = getName(f.catalog, 'Version');
      const raw = resolve(f.context, f.catalog.get(PDFName.of('Version')));
      if (raw === undefined) return condition(true);
      return condition(v !== undefined && /^2\.[0-9]$/.test(v), { context: `catalog Version ${v ?? String(raw)}` });
    },
  },
  {
    id: 'pdfa.catalog.requirements',
    clauses: { 2: '6.11', 3: '6.11', 4: '6.12' },
    description: 'The document catalog shall not contain the Requirements key.',
    test: (f) => condition(!has(f.catalog, 'Requirements'), { context: 'catalog has Requirements' }),
  },
];
