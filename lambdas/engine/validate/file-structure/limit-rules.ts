/**
 * Implementation limits (PDF/A-1 6.1.12, PDF/A-2/3 6.1.13): values a
 * conforming reader must be able to hold. PDF/A-1 follows the PDF 1.4
 * limits (reals within ±32767, arrays up to 8191 elements, dictionaries up
 * to 4095 entries, strings up to 65535 bytes, DeviceN up to 8 colourants);
 * PDF/A-2/3 follow ISO 32000-1 Annex C (reals within ±3.403e38 and not
 * closer to zero than ±1.175e-38, strings up to 32767 bytes, DeviceN up to
 * 32 colourants, page boundaries between 3 and 14 400 units). Values are read
 * from the file and object streams (syntax-scan.ts) and from content streams
 * (content-values.ts).
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFStream } from '@cantoo/pdf-lib';
import { parseEmbeddedCMap, type EmbeddedCMap } from '../../core/interpret/code-space';
import { inherited } from '../../core/inherited';
import { getName, name, resolve, streamBytes } from '../../core/pdf-objects';
import { collected, contentUsage } from '../content-pass';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { condition, eachOf, type Example, type Rule, type RuleOutcome } from '../rule';
import { contentValues } from './content-values';
import { operatorUse } from './operator-use';
import { inDocument } from './syntax-rules';
import { indirectObjectCount, syntaxScan, type ValueFindings, type ValueHit } from './syntax-scan';

const LIMITS = { 1: '6.1.12', 2: '6.1.13', 3: '6.1.13' };

/** Hits of one kind from the file, its object streams and its content streams. */
function hits(m: ValidationModel, pick: (v: ValueFindings) => ValueHit[], keep: (h: ValueHit) => boolean): Example[] {
  const out: Example[] = [];
  for (const h of pick(syntaxScan(m).values)) if (keep(h) && inDocument(m, h.objectNumber)) out.push(example(h));
  for (const c of contentValues(m)) for (const h of pick(c.findings)) if (keep(h)) out.push({ ...example(h), ...(c.page !== undefined ? { page: c.page } : {}) });
  return out;
}

const example = (h: ValueHit): Example => ({ ...(h.objectNumber !== undefined ? { objectNumber: h.objectNumber } : {}), context: h.text });
const outcome = (failures: Example[]): RuleOutcome => ({ checked: 1, failures });

const MAX_CID = 65535;

/** The largest CID each embedded CMap (the Encoding stream of a Type 0 font content uses) maps a code to. */
const embeddedCMapCids = fact('file-structure/cmap-cids', (m): { objectNumber: number | undefined; font: string; maxCid: number }[] => {
  const out: { objectNumber: number | undefined; font: string; maxCid: number }[] = [];
  for (const font of contentUsage(m).fonts.keys()) {
    const encoding = resolve(m.context, font.get(name('Encoding')));
    if (!(encoding instanceof PDFStream)) continue;
    let cmap: EmbeddedCMap;
    try {
      const program = streamBytes(encoding);
      if (!program) continue;
      cmap = parseEmbeddedCMap(program);
    } catch {
      continue; // an undecodable CMap is the fonts area's failure (6.2.11.3.3 and its counterparts)
    }
    out.push({ objectNumber: m.objectNumbers.of(encoding), font: getName(font, 'BaseFont') ?? '(unnamed)', maxCid: cmap.maxCid });
  }
  return out;
});

/** Every DeviceN colour space array reachable from resources and the objects pdf-lib parsed. */
const deviceNSpaces = fact('file-structure/devicen', (m): { objectNumber: number | undefined; components: number }[] => {
  const out: { objectNumber: number | undefined; components: number }[] = [];
  const seen = new Set<PDFArray>();
  const visit = (arr: PDFArray, objectNumber: number | undefined): void => {
    if (seen.has(arr)) return;
    seen.add(arr);
    const first = arr.lookup(0);
    if (first instanceof PDFName && first.decodeText() === 'DeviceN') {
      const names = arr.lookup(1);
      if (names instanceof PDFArray) out.push({ objectNumber, components: names.size() });
    }
  };
  // DeviceN arrays are nested anywhere (resources, images, shadings): look at every array one level inside each object.
  for (const [ref, obj] of m.context.enumerateIndirectObjects()) {
    const roots = obj instanceof PDFStream ? [obj.dict] : [obj];
    const stack: unknown[] = [...roots];
    let budget = 10_000;
    while (stack.length > 0 && budget-- > 0) {
      const o = stack.pop();
      if (o instanceof PDFArray) {
        visit(o, ref.objectNumber);
        for (const x of o.asArray()) if (x instanceof PDFArray || x instanceof PDFDict) stack.push(x);
      } else if (o instanceof PDFDict) {
        for (const [, v] of o.entries()) if (v instanceof PDFArray || v instanceof PDFDict) stack.push(v);
      }
    }
  }
  return out;
});

const BOXES = ['MediaBox', 'CropBox', 'BleedBox', 'TrimBox', 'ArtBox'];

export const LIMIT_RULES: readonly Rule[] = [
  {
    id: 'pdfa.limits.integer',
    clauses: LIMITS,
    description: 'Integers shall lie between −2,147,483,648 and 2,147,483,647.',
    test: (f) => outcome(hits(f, (v) => v.bigIntegers, () => true)),
  },
  {
    id: 'pdfa.limits.real',
    clauses: LIMITS,
    description: (p) => (p.part === 1 ? 'The absolute value of a real number shall not exceed 32767.' : 'Real numbers shall lie within ±3.403 × 10^38.'),
    test: (f, p) => outcome(hits(f, (v) => v.bigReals, (h) => (p.part === 1 ? Math.abs(h.value) > 32767 : Math.abs(h.value) > 3.403e38))),
  },
  {
    id: 'pdfa.limits.real-tiny',
    clauses: { 2: '6.1.13', 3: '6.1.13' },
    description: 'A non-zero real number shall not be closer to zero than ±1.175 × 10^−38.',
    test: (f) => outcome(hits(f, (v) => v.tinyReals, () => true)),
  },
  {
    id: 'pdfa.limits.string',
    clauses: LIMITS,
    description: (p) => (p.part === 1 ? 'A string shall not be longer than 65535 bytes.' : 'A string shall not be longer than 32767 bytes.'),
    test: (f, p) => outcome(hits(f, (v) => v.longStrings, (h) => h.value > (p.part === 1 ? 65535 : 32767))),
  },
  {
    id: 'pdfa.limits.name',
    clauses: LIMITS,
    description: 'A name shall not be longer than 127 bytes.',
    test: (f) => outcome(hits(f, (v) => v.longNames, () => true)),
  },
  {
    id: 'pdfa.limits.array',
    clauses: { 1: '6.1.12' },
    description: 'An array shall not hold more than 8191 elements.',
    test: (f) => outcome(hits(f, (v) => v.bigArrays, () => true)),
  },
  {
    id: 'pdfa.limits.dictionary',
    clauses: { 1: '6.1.12' },
    description: 'A dictionary shall not hold more than 4095 entries.',
    test: (f) => outcome(hits(f, (v) => v.bigDicts, () => true)),
  },
  {
    id: 'pdfa.limits.indirect-objects',
    clauses: LIMITS,
    description: 'A file shall not contain more than 8,388,607 indirect objects.',
    test: (f) => condition(indirectObjectCount(f) <= 8_388_607, { context: `${indirectObjectCount(f)} indirect objects` }),
  },
  {
    id: 'pdfa.limits.q-nesting',
    clauses: LIMITS,
    description: 'Graphics states shall not be nested by q and Q operators more than 28 levels deep.',
    test: (f) => {
      const use = collected(f, operatorUse);
      return condition(use.maxDepth <= 28, { ...(use.deepest ? { page: use.deepest.page } : {}), context: `q nested ${use.maxDepth} levels deep` });
    },
  },
  {
    id: 'pdfa.limits.devicen',
    clauses: LIMITS,
    description: (p) => `A DeviceN colour space shall not have more than ${p.part === 1 ? 8 : 32} colourants.`,
    test: (f, p) => {
      const max = p.part === 1 ? 8 : 32;
      return eachOf(deviceNSpaces(f), (d) => d.components <= max, (d) => ({ ...(d.objectNumber !== undefined ? { objectNumber: d.objectNumber } : {}), context: `DeviceN with ${d.components} colourants` }));
    },
  },
  {
    id: 'pdfa.limits.cid',
    clauses: LIMITS,
    description: 'A CID (character identifier) shall not be greater than 65 535: no embedded CMap of a font used for text shall map a code to a larger CID.',
    test: (f) => eachOf(embeddedCMapCids(f), (c) => c.maxCid <= MAX_CID, (c) => ({ ...(c.objectNumber !== undefined ? { objectNumber: c.objectNumber } : {}), context: `CMap of font ${c.font} maps to CID ${c.maxCid}` })),
  },
  {
    id: 'pdfa.limits.page-boundaries',
    clauses: { 2: '6.1.13', 3: '6.1.13' },
    description: 'Each page boundary (MediaBox, CropBox, BleedBox, TrimBox, ArtBox) shall be at least 3 and at most 14 400 units in each direction.',
    test: (f) => {
      const failures: Example[] = [];
      let checked = 0;
      f.doc.getPages().forEach((page, i) => {
        for (const key of BOXES) {
          const box = pageBox(page.node, key);
          if (!box) continue;
          checked++;
          const w = Math.abs(box[2] - box[0]);
          const h = Math.abs(box[3] - box[1]);
          if (!(w >= 3 && h >= 3 && w <= 14400 && h <= 14400)) failures.push({ page: i + 1, context: `${key} ${w} × ${h}` });
        }
      });
      return { checked, failures };
    },
  },
];

/**
 * A page boundary as veraPDF judges it: MediaBox and CropBox are inheritable (the nearest ancestor's value,
 * ISO 32000-1 Table 30), the other boxes are the page's own. A corner that is missing or not a number counts as
 * 0, as veraPDF's CosBBox reads it (so `[0 0 612]` has a zero height and fails).
 */
function pageBox(node: PDFDict, key: string): [number, number, number, number] | undefined {
  const value = key === 'MediaBox' || key === 'CropBox' ? inherited(node, key, { maxDepth: 64 }) : resolve(node.context, node.get(PDFName.of(key)));
  if (!(value instanceof PDFArray)) return undefined;
  const corner = (i: number): number => {
    const v = i < value.size() ? value.lookup(i) : undefined;
    return v instanceof PDFNumber ? v.asNumber() : 0;
  };
  return [corner(0), corner(1), corner(2), corner(3)];
}

