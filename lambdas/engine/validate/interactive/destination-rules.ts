/**
 * Structure destinations (ISO 14289-2 8.8): a destination inside the document
 * shall name the structure element it leads to, so assistive technology lands
 * on content rather than on a page position. GoTo actions carry the structure
 * destination in SD; the Dest entries of links and outline items (and an
 * OpenAction written as a destination) shall point at a structure element.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFString, PDFHexString, type PDFObject } from '@cantoo/pdf-lib';
import { nameTreeLeaves } from '../../core/actions';
import { getDict, getName, name, resolve, textOf } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { eachOf, type Example, type Rule } from '../rule';
import { structTree } from '../structure/struct-tree';
import { annotations } from './annotations';

/** Outline items visited at most; bookmark trees of real files stay far below. */
const MAX_OUTLINE_ITEMS = 100_000;

interface DestinationSite {
  where: string;
  page?: number;
  objectNumber?: number;
  dest: PDFObject | undefined;
}

/** Named destinations: the catalog's Dests dictionary (names) and the Dests name tree (strings). */
const namedDestinations = fact('interactive/named-destinations', (m): Map<string, PDFObject> => {
  const ctx = m.context;
  const out = new Map<string, PDFObject>();
  const tree = getDict(getDict(m.catalog, 'Names'), 'Dests');
  if (tree) {
    for (const leaf of nameTreeLeaves(ctx, tree)) {
      const names = leaf.lookup(name('Names'));
      if (!(names instanceof PDFArray)) continue;
      for (let i = 0; i + 1 < names.size(); i += 2) {
        const key = textOf(resolve(ctx, names.get(i)));
        const value = resolve(ctx, names.get(i + 1));
        if (key !== undefined && value !== undefined && !out.has(key)) out.set(key, value);
      }
    }
  }
  const dests = getDict(m.catalog, 'Dests');
  if (dests) for (const [k, v] of dests.entries()) if (!out.has(k.decodeText())) out.set(k.decodeText(), resolve(ctx, v)!);
  return out;
});

type Verdict = 'structure' | 'page' | 'unresolved';

/** Whether a destination (explicit, named, or a dictionary with D / SD) leads to a structure element. */
function judge(m: ValidationModel, dest: PDFObject | undefined, depth = 0): Verdict {
  const ctx = m.context;
  const v = resolve(ctx, dest);
  if (depth > 4 || v === undefined) return 'unresolved';
  if (v instanceof PDFName || v instanceof PDFString || v instanceof PDFHexString) {
    const key = v instanceof PDFName ? v.decodeText() : textOf(v);
    const target = key === undefined ? undefined : namedDestinations(m).get(key);
    return target === undefined ? 'unresolved' : judge(m, target, depth + 1);
  }
  if (v instanceof PDFDict) {
    // A named destination's value may be a dictionary: SD is a structure destination.
    if (v.has(name('SD'))) return 'structure';
    return judge(m, v.get(name('D')), depth + 1);
  }
  if (!(v instanceof PDFArray) || v.size() === 0) return 'unresolved';
  const first = resolve(ctx, v.get(0));
  // A page number only targets a page of another document (GoToR); nothing to judge here.
  if (first instanceof PDFNumber || !(first instanceof PDFDict)) return 'unresolved';
  const isElement = structTree(m).byDict.has(first) || getName(first, 'Type') === 'StructElem' || (first.has(name('S')) && first.has(name('P')) && getName(first, 'Type') !== 'Page');
  return isElement ? 'structure' : 'page';
}

const destinationSites = fact('interactive/destination-sites', (m): DestinationSite[] => {
  const ctx = m.context;
  const out: DestinationSite[] = [];
  for (const a of annotations(m)) {
    if (a.subtype === 'Link' && a.dict.has(name('Dest'))) {
      out.push({ where: 'Link annotation Dest', page: a.page, ...(a.objectNumber !== undefined ? { objectNumber: a.objectNumber } : {}), dest: a.dict.get(name('Dest')) });
    }
  }
  const seen = new Set<PDFDict>();
  const visit = (first: PDFObject | undefined) => {
    let item = resolve(ctx, first);
    while (item instanceof PDFDict && !seen.has(item) && seen.size < MAX_OUTLINE_ITEMS) {
      seen.add(item);
      if (item.has(name('Dest'))) {
        const title = textOf(item.lookup(name('Title')));
        const num = m.objectNumbers.of(item);
        out.push({ where: `outline item${title !== undefined ? ` "${title}"` : ''} Dest`, ...(num !== undefined ? { objectNumber: num } : {}), dest: item.get(name('Dest')) });
      }
      visit(item.get(name('First')));
      item = resolve(ctx, item.get(name('Next')));
    }
  };
  visit(getDict(m.catalog, 'Outlines')?.get(name('First')));
  const open = resolve(ctx, m.catalog.get(name('OpenAction')));
  if (open instanceof PDFArray) out.push({ where: 'OpenAction destination', dest: open });
  return out.filter((s) => judge(m, s.dest) !== 'unresolved');
});

const siteExample = (s: DestinationSite): Example => ({
  ...(s.page !== undefined ? { page: s.page } : {}),
  ...(s.objectNumber !== undefined ? { objectNumber: s.objectNumber } : {}),
  context: `${s.where} targets a page, not a structure element`,
});

export const DESTINATION_RULES: readonly Rule[] = [
  {
    id: 'pdfua.destinations.structure',
    clauses: { ua2: '8.8' },
    description: 'Every destination within the document (the Dest of a link or outline item, an OpenAction destination) shall be a structure destination: its target is a structure element.',
    test: (m) => eachOf(destinationSites(m), (s) => judge(m, s.dest) === 'structure', siteExample),
  },
  {
    id: 'pdfua.destinations.goto-structure',
    clauses: { ua2: '8.8' },
    description: 'Every GoTo action shall carry a structure destination (SD) naming the structure element it leads to.',
    test: (m) => {
      const gotos = m.actions.sites.filter((s) => s.type === 'GoTo');
      return eachOf(
        gotos,
        (s) => s.action.has(name('SD')),
        (s) => ({ ...(s.page !== null ? { page: s.page } : {}), ...(m.objectNumbers.of(s.action) !== undefined ? { objectNumber: m.objectNumbers.of(s.action)! } : {}), context: `GoTo action (${s.location}) has no SD` }),
      );
    },
  },
];

