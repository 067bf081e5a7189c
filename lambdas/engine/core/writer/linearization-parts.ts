/**
 * Where each object of a linearized file goes (ISO 32000-1 Annex F.3): the
 * catalog and what opening the document needs (part 4), the first page and
 * everything it uses (part 6), each other page with the objects only it uses
 * (part 7), the objects several other pages share (part 8), and the rest
 * (part 9: the page tree, thumbnails, outlines, the Info dictionary…).
 *
 * Who uses an object is found as qpdf finds it (QPDF_optimization.cc,
 * QPDF_linearization.cc), whose reading of Annex F `qpdf --check-linearization`
 * holds a file to: each page's objects are those reached from the page without
 * passing through another page or back up its /Parent; its /Thumb is the
 * page's thumbnail's; then each of the trailer's and the catalog's entries
 * (the catalog's /ViewerPreferences, /PageMode, /Threads, /OpenAction and
 * /AcroForm open the document; /Outlines goes to part 6 only when /PageMode
 * is /UseOutlines). A stream's /Length is not followed: the writers write it
 * directly.
 *
 * Objects that are not streams may be packed into object streams
 * (`pack`): only those of parts 7 to 9, never a page, the catalog or the
 * outline root, so the first page reads without inflating anything (outlines
 * shown when the document opens are part of the first page's section). An object
 * stream counts as used by every user of its members, and the parts are made
 * of these units (a single object or an object stream), which is how a reader
 * of the hint tables sees them.
 */
import { PDFArray, PDFDict, PDFName, PDFNull, PDFRef, PDFStream, type PDFContext, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { OBJECTS_PER_STREAM, packable } from './object-stream-writer';

/** One object of the file, or an object stream packing several (`packed`). */
export interface Unit {
  refs: PDFRef[];
  packed: boolean;
}

export interface LinearizationParts {
  /** The page objects, in page order. */
  pages: PDFRef[];
  part4: Unit[];
  /** The first page's unit first. */
  part6: Unit[];
  /** For each page after the first: its page unit, then the units only it uses. */
  part7: Unit[][];
  part8: Unit[];
  part9: Unit[];
  /** The outline units (in part 6 or 9, consecutive, the outline root first), if the document has outlines. */
  outlines: Unit[];
  /** For each page: the units of parts 6 and 8 it uses that something else uses too (the shared objects of its hint table entry). */
  shared: Unit[][];
}

type Category = 'root' | 'outlines' | 'open' | 'first-private' | 'first-shared' | 'page-private' | 'page-shared' | 'thumb-private' | 'thumb-shared' | 'other';

const OPEN_DOCUMENT_KEYS = new Set(['/ViewerPreferences', '/PageMode', '/Threads', '/OpenAction', '/AcroForm']);
const TYPE = PDFName.of('Type');
const PAGE = PDFName.of('Page');

/** Users are strings: `root`, `page:N`, `thumb:N`, `trailer:/Key`, `catalog:/Key`. */
function categorize(users: Iterable<string>): Category {
  let open = false, firstPage = false, outlines = false, root = false;
  let otherPages = 0, thumbs = 0, others = 0;
  for (const user of users) {
    const [kind, name] = user.split(':') as [string, string | undefined];
    if (kind === 'root') root = true;
    else if (kind === 'page') name === '0' ? (firstPage = true) : otherPages++;
    else if (kind === 'thumb') thumbs++;
    else if (kind === 'trailer') name === '/Encrypt' ? (open = true) : others++;
    else if (OPEN_DOCUMENT_KEYS.has(name!)) open = true;
    else if (name === '/Outlines') outlines = true;
    else others++;
  }
  if (root) return 'root';
  if (outlines) return 'outlines';
  if (open) return 'open';
  if (firstPage) return others === 0 && otherPages === 0 && thumbs === 0 ? 'first-private' : 'first-shared';
  if (otherPages === 1 && others === 0 && thumbs === 0) return 'page-private';
  if (otherPages > 1) return 'page-shared';
  if (thumbs === 1 && others === 0) return 'thumb-private';
  return thumbs > 1 ? 'thumb-shared' : 'other';
}

/** The object a reference stands for, or undefined when it is missing or null (the writer writes such a reference as null). */
export function target(context: PDFContext, ref: PDFRef): PDFObject | undefined {
  const object = context.lookup(ref);
  return object === undefined || object === PDFNull ? undefined : object;
}

/** Every object each user reaches, recorded as users of each object (insertion order: pages first, in order). */
function findUsers(doc: PDFDocument, pages: PDFRef[]): Map<PDFRef, Set<string>> {
  const { context } = doc;
  const users = new Map<PDFRef, Set<string>>();
  const walk = (user: string, start: PDFObject, pageIndex: number): void => {
    const visited = new Set<PDFRef>();
    const pending: [string, PDFObject, boolean][] = [[user, start, true]];
    while (pending.length > 0) {
      const [who, item, top] = pending.pop()!;
      const object = item instanceof PDFRef ? target(context, item) : item;
      if (object === undefined) continue;
      const isPage = object instanceof PDFDict && object.get(TYPE) === PAGE;
      if (isPage && !top) continue;
      if (item instanceof PDFRef) {
        if (visited.has(item)) continue;
        visited.add(item);
        if (!users.has(item)) users.set(item, new Set());
        users.get(item)!.add(who);
      }
      if (object instanceof PDFArray) {
        for (const value of object.asArray()) pending.push([who, value, false]);
        continue;
      }
      const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : null;
      for (const [key, value] of dict?.entries() ?? []) {
        const k = key.asString();
        if (isPage && k === '/Thumb') pending.push([`thumb:${pageIndex}`, value, false]);
        else if ((isPage && k === '/Parent') || (object instanceof PDFStream && k === '/Length')) continue;
        else pending.push([who, value, false]);
      }
    }
  };
  pages.forEach((page, i) => walk(`page:${i}`, page, i));
  const { Root, Info } = context.trailerInfo;
  if (Info) walk('trailer:/Info', Info, -1);
  const catalog = doc.catalog;
  for (const [key, value] of catalog.entries()) walk(`catalog:${key.asString()}`, value, -1);
  if (Root instanceof PDFRef) {
    if (!users.has(Root)) users.set(Root, new Set());
    users.get(Root)!.add('root');
  }
  // Objects only an orphan page refers to are written too, used by no one (at the end).
  const pending: PDFObject[] = [...users.keys()];
  while (pending.length > 0) {
    const object = pending.pop()!;
    const resolved = object instanceof PDFRef ? target(context, object) : object;
    if (resolved === undefined) continue;
    const children = resolved instanceof PDFArray ? resolved.asArray() : [...((resolved instanceof PDFStream ? resolved.dict : resolved instanceof PDFDict ? resolved : null)?.entries() ?? [])].filter(([k]) => !(resolved instanceof PDFStream && k.asString() === '/Length')).map(([, v]) => v);
    for (const child of children) {
      if (child instanceof PDFRef) {
        if (users.has(child) || target(context, child) === undefined) continue;
        users.set(child, new Set());
      }
      pending.push(child);
    }
  }
  return users;
}

export function linearizationParts(doc: PDFDocument, pack: boolean): LinearizationParts {
  const { context } = doc;
  const pages = doc.getPages().map((p) => p.ref);
  const users = findUsers(doc, pages);
  const root = context.trailerInfo.Root as PDFRef;
  const outlinesRoot = doc.catalog.get(PDFName.of('Outlines'));
  const pageMode = doc.catalog.get(PDFName.of('PageMode'));
  const outlinesOnFirstPage = pageMode instanceof PDFName && pageMode.asString() === '/UseOutlines';
  const keepAlone = new Set<PDFRef>([...pages, root, ...(outlinesRoot instanceof PDFRef ? [outlinesRoot] : [])]);

  // Units: each object alone, or packed with others of its kind.
  const units: Unit[] = [];
  const groups = new Map<string, PDFRef[]>();
  for (const [ref, who] of users) {
    const category = categorize(who);
    const group = category === 'page-private' ? [...who].find((u) => u.startsWith('page:'))! : category === 'page-shared' ? 'shared' : category === 'outlines' && !outlinesOnFirstPage ? 'outlines' : ['thumb-private', 'thumb-shared', 'other'].includes(category) ? 'other' : null;
    if (!pack || group === null || keepAlone.has(ref) || !packable(context, ref, target(context, ref)!)) units.push({ refs: [ref], packed: false });
    else groups.set(group, groups.get(group) ?? []).get(group)!.push(ref);
  }
  for (const refs of groups.values()) {
    for (let i = 0; i < refs.length; i += OBJECTS_PER_STREAM) units.push({ refs: refs.slice(i, i + OBJECTS_PER_STREAM), packed: true });
  }

  // Each unit's users are its members' users.
  const unitOf = new Map<PDFRef, Unit>();
  const unitUsers = new Map<Unit, Set<string>>();
  for (const unit of units) {
    const all = new Set<string>();
    for (const ref of unit.refs) {
      unitOf.set(ref, unit);
      for (const u of users.get(ref)!) all.add(u);
    }
    unitUsers.set(unit, all);
  }
  const pageUnits = pages.map(() => new Set<Unit>());
  for (const [unit, who] of unitUsers) {
    for (const u of who) if (u.startsWith('page:')) pageUnits[Number(u.slice(5))]!.add(unit);
  }

  const byCategory = new Map<Category, Unit[]>();
  const privateTo = pages.map((): Unit[] => []);
  for (const unit of units) {
    const category = categorize(unitUsers.get(unit)!);
    byCategory.set(category, byCategory.get(category) ?? []).get(category)!.push(unit);
    if (category === 'page-private') privateTo[Number([...unitUsers.get(unit)!].find((u) => u.startsWith('page:'))!.slice(5))]!.push(unit);
  }
  const of = (c: Category): Unit[] => byCategory.get(c) ?? [];
  const pageUnit = pages.map((ref) => unitOf.get(ref)!);
  pageUnit.forEach((unit, i) => {
    // qpdf refuses a file whose page is used by anything but itself (a page listed twice in the tree).
    if (categorize(unitUsers.get(unit)!) !== (i === 0 ? 'first-private' : 'page-private')) throw new Error(`linearize: page ${i + 1} is not used by itself alone`);
  });
  const outlines = outlinesFirst(of('outlines'), outlinesRoot instanceof PDFRef ? unitOf.get(outlinesRoot) : undefined);

  const part4 = [unitOf.get(root)!, ...of('open')];
  const part6 = [pageUnit[0]!, ...of('first-private').filter((u) => u !== pageUnit[0]), ...of('first-shared'), ...(outlinesOnFirstPage ? outlines : [])];
  const part7 = pages.slice(1).map((_, i) => [pageUnit[i + 1]!, ...privateTo[i + 1]!.filter((u) => u !== pageUnit[i + 1])]);
  const part8 = of('page-shared');
  const usedByPageTree = (u: Unit) => unitUsers.get(u)!.has('catalog:/Pages');
  const part9 = [...of('other').filter(usedByPageTree), ...of('thumb-private'), ...of('thumb-shared'), ...(outlinesOnFirstPage ? [] : outlines), ...of('other').filter((u) => !usedByPageTree(u))];

  const indexed = new Set([...part6, ...part8]);
  const shared = pageUnits.map((set, i) => (i === 0 ? [] : [...set].filter((u) => indexed.has(u) && unitUsers.get(u)!.size > 1)));
  return { pages, part4, part6, part7, part8, part9, outlines, shared };
}

/** The outline units with the outline root's first (the hint table locates the outlines by it). */
function outlinesFirst(units: Unit[], first: Unit | undefined): Unit[] {
  if (!first) return units;
  return [first, ...units.filter((u) => u !== first)];
}
