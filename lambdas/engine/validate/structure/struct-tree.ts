/**
 * The logical structure tree, read once per document (`structTree(m)`).
 *
 * Stable interface (other areas build on it; extend, do not change):
 *
 *   structTree(m): StructTree
 *     .root           the StructTreeRoot dictionary (undefined when absent)
 *     .elements       every structure element reached from the root, depth-first in
 *                     document order (StructElem, see below)
 *     .topLevel       the root's own element children
 *     .roleMap        the root's RoleMap as written (name → name)
 *     .namespaces     the root's Namespaces array (PDF 2.0), each with its RoleMapNS
 *     .parentTree     lookups in the ParentTree number tree:
 *                       forContent(structParents, mcid) – element owning a marked-content
 *                         sequence of a page/form whose StructParents is given
 *                       forObject(structParent) – element owning an annotation / XObject
 *                       entries – every key of the tree with its value
 *     .byDict         element of a dictionary (Map<PDFDict, StructElem>)
 *     .truncated      the walk stopped at its bound (a pathological tree)
 *
 *   StructElem: dict, objectNumber, type (S as written), namespace (URI of NS, or
 *   undefined = default namespace), standardType / standardNamespace (after role
 *   mapping; undefined when the chain does not end in a standard type), mapping
 *   (the chain of types visited and why it stopped), parent (undefined = child of the
 *   root), children (elements), kids (every kid in order: element, MCID with its page,
 *   OBJR, unknown), page / pageDict (Pg, inherited from ancestors), lang, alt,
 *   actualText, expansion (E), title (T), id (ID), attributes (A and the ClassMap
 *   classes named by C, as dictionaries with their owner), depth.
 *
 * Standard types follow ISO 32000-1 (PDF 1.7 namespace) and ISO 32000-2 (PDF 2.0
 * namespace); role mapping follows RoleMap for elements without a namespace and
 * RoleMapNS of the element's namespace otherwise (an untargeted name maps into the
 * default namespace, as ISO 32000-2 14.8.6.2 describes).
 *
 * Everything here is lenient: malformed entries read as absent; cycles (an element
 * reachable twice, a circular role map) are detected and reported, never followed.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObject, PDFRef, PDFStream, type PDFContext } from '@cantoo/pdf-lib';
import { asDict, getArray, getDict, getName, getNumber, getText, name, nameText, resolve, resolvedItems } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';

export const NS_PDF17 = 'http://iso.org/pdf/ssn';
export const NS_PDF20 = 'http://iso.org/pdf2/ssn';
export const NS_MATHML = 'http://www.w3.org/1998/Math/MathML';

/** ISO 32000-1 14.8.4 standard structure types (the PDF 1.7 namespace). */
export const PDF17_TYPES: ReadonlySet<string> = new Set([
  'Document', 'Part', 'Art', 'Sect', 'Div', 'BlockQuote', 'Caption', 'TOC', 'TOCI', 'Index', 'NonStruct', 'Private',
  'P', 'H', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'L', 'LI', 'Lbl', 'LBody', 'Table', 'TR', 'TH', 'TD', 'THead', 'TBody', 'TFoot',
  'Span', 'Quote', 'Note', 'Reference', 'BibEntry', 'Code', 'Link', 'Annot', 'Ruby', 'RB', 'RT', 'RP', 'Warichu', 'WT', 'WP',
  'Figure', 'Formula', 'Form',
]);

/** ISO 32000-2 14.8.4 standard structure types (the PDF 2.0 namespace); Hn for any n ≥ 1 is tested separately. */
export const PDF20_TYPES: ReadonlySet<string> = new Set([
  'Document', 'DocumentFragment', 'Part', 'Sect', 'Div', 'Aside', 'NonStruct', 'P', 'H', 'Title', 'FENote', 'Sub',
  'Lbl', 'Span', 'Em', 'Strong', 'Link', 'Annot', 'Form', 'Ruby', 'RB', 'RT', 'RP', 'Warichu', 'WT', 'WP',
  'L', 'LI', 'LBody', 'Table', 'TR', 'TH', 'TD', 'THead', 'TBody', 'TFoot', 'Caption', 'Figure', 'Formula', 'Artifact',
]);

export function isStandardIn(ns: string, type: string): boolean {
  if (ns === NS_PDF17) return PDF17_TYPES.has(type);
  if (ns === NS_PDF20) return PDF20_TYPES.has(type) || /^H[1-9][0-9]*$/.test(type);
  if (ns === NS_MATHML) return true;
  return false;
}

export type StructKid =
  | { kind: 'element'; element: StructElem }
  | { kind: 'mcid'; mcid: number; page: number | undefined; pageDict: PDFDict | undefined; stream: PDFStream | undefined }
  | { kind: 'objr'; object: PDFObject | undefined; objectNumber: number | undefined; page: number | undefined }
  | { kind: 'other'; object: PDFObject };

export interface AttributeObject {
  dict: PDFDict;
  /** O entry (Layout, Table, List, PrintField, NSO, …). */
  owner: string | undefined;
  /** Came from the ClassMap through C rather than A. */
  fromClass: boolean;
}

export interface RoleMapping {
  /** Types visited, the element's own first, as `type` or `type@namespace-uri`. */
  chain: string[];
  /** How the chain ended. */
  end: 'standard' | 'unmapped' | 'circular';
  /** A standard type was mapped to something else (ISO 14289-1 7.1 forbids it). */
  remapsStandard: boolean;
  /** Following the maps from the element's type comes back to a type already visited. */
  circular: boolean;
  /** Some step maps a type of an explicit namespace to a type of the same namespace (ISO 14289-2 8.2.4). */
  sameNamespace: boolean;
}

export interface StructElem {
  index: number;
  dict: PDFDict;
  objectNumber: number | undefined;
  /** S as written (undefined when missing or not a name). */
  type: string | undefined;
  /** The NS entry's namespace URI; undefined when the element has no NS (the default namespace). */
  namespace: string | undefined;
  standardType: string | undefined;
  standardNamespace: string | undefined;
  mapping: RoleMapping;
  parent: StructElem | undefined;
  children: StructElem[];
  kids: StructKid[];
  depth: number;
  page: number | undefined;
  pageDict: PDFDict | undefined;
  lang: string | undefined;
  alt: string | undefined;
  actualText: string | undefined;
  expansion: string | undefined;
  title: string | undefined;
  id: string | undefined;
  attributes: AttributeObject[];
}

export interface NamespaceInfo {
  dict: PDFDict;
  uri: string | undefined;
  roleMapNS: PDFDict | undefined;
}

export interface ParentTreeLookup {
  forContent(structParents: number, mcid: number): StructElem | undefined;
  forObject(structParent: number): StructElem | undefined;
  /** Every key with its resolved value (array for content, dictionary for objects). */
  entries: Map<number, PDFObject>;
}

export interface StructTree {
  root: PDFDict | undefined;
  elements: StructElem[];
  topLevel: StructElem[];
  roleMap: Map<string, string>;
  namespaces: NamespaceInfo[];
  parentTree: ParentTreeLookup;
  byDict: Map<PDFDict, StructElem>;
  truncated: boolean;
  /** The default namespace of elements without NS: PDF 1.7 (ISO 32000-2 14.8.6.1). */
  defaultNamespace: string;
}

/** Bounds against pathological trees: far above any real document. */
const MAX_ELEMENTS = 500_000;
const MAX_NUMBER_TREE_NODES = 100_000;
const MAX_ROLE_CHAIN = 64;

export const structTree = fact('struct-tree', (m): StructTree => readStructTree(m));

function readStructTree(m: ValidationModel): StructTree {
  const ctx = m.context;
  const root = getDict(m.catalog, 'StructTreeRoot');
  const roleMap = new Map<string, string>();
  const roleMapDict = getDict(root, 'RoleMap');
  if (roleMapDict) {
    for (const [k, v] of roleMapDict.entries()) {
      const target = nameText(resolve(ctx, v));
      if (target !== undefined) roleMap.set(k.decodeText(), target);
    }
  }
  const namespaces: NamespaceInfo[] = [];
  const nsByDict = new Map<PDFDict, NamespaceInfo>();
  const nsInfo = (d: PDFDict): NamespaceInfo => {
    let info = nsByDict.get(d);
    if (!info) {
      info = { dict: d, uri: getText(d, 'NS'), roleMapNS: getDict(d, 'RoleMapNS') };
      nsByDict.set(d, info);
    }
    return info;
  };
  for (const d of resolvedItems(ctx, root?.get(name('Namespaces')))) if (d instanceof PDFDict) namespaces.push(nsInfo(d));

  const pageIndex = new Map<PDFDict, number>();
  try {
    m.doc.getPages().forEach((p, i) => pageIndex.set(p.node, i + 1));
  } catch {
    // A broken page tree: elements simply carry no page number.
  }
  const classMap = getDict(root, 'ClassMap');

  const tree: StructTree = {
    root,
    elements: [],
    topLevel: [],
    roleMap,
    namespaces,
    parentTree: emptyParentTree(),
    byDict: new Map(),
    truncated: false,
    defaultNamespace: NS_PDF17,
  };
  if (!root) return tree;

  const mapper = roleMapper(ctx, roleMap, nsInfo);

  // Iterative depth-first walk: deep trees must not overflow the stack.
  type Frame = { parent: StructElem | undefined; items: PDFObject[]; i: number; pageDict: PDFDict | undefined };
  const stack: Frame[] = [{ parent: undefined, items: kidItems(ctx, root), i: 0, pageDict: undefined }];
  const seen = new Set<PDFDict>();
  while (stack.length) {
    const frame = stack[stack.length - 1]!;
    if (frame.i >= frame.items.length) {
      stack.pop();
      continue;
    }
    const raw = frame.items[frame.i++]!;
    const parent = frame.parent;
    const item = resolve(ctx, raw);
    if (item instanceof PDFNumber) {
      if (parent) parent.kids.push({ kind: 'mcid', mcid: item.asNumber(), page: parent.page, pageDict: parent.pageDict, stream: undefined });
      continue;
    }
    const d = asDict(item);
    if (!d) {
      if (parent && item) parent.kids.push({ kind: 'other', object: item });
      continue;
    }
    const kidType = getName(d, 'Type');
    if (kidType === 'MCR' || (kidType === undefined && d.has(name('MCID')) && !d.has(name('S')))) {
      const pg = getDict(d, 'Pg') ?? frame.pageDict;
      const stm = d.lookup(name('Stm'));
      if (parent) parent.kids.push({ kind: 'mcid', mcid: getNumber(d, 'MCID') ?? -1, page: pg ? pageIndex.get(pg) : undefined, pageDict: pg, stream: stm instanceof PDFStream ? stm : undefined });
      continue;
    }
    if (kidType === 'OBJR') {
      const pg = getDict(d, 'Pg') ?? frame.pageDict;
      const objRaw = d.get(name('Obj'));
      if (parent) parent.kids.push({ kind: 'objr', object: resolve(ctx, objRaw), objectNumber: objRaw instanceof PDFRef ? objRaw.objectNumber : undefined, page: pg ? pageIndex.get(pg) : undefined });
      continue;
    }
    if (seen.has(d)) continue; // an element reachable twice: keep the first place only
    if (tree.elements.length >= MAX_ELEMENTS) {
      tree.truncated = true;
      break;
    }
    seen.add(d);
    const pageDict = getDict(d, 'Pg') ?? frame.pageDict;
    const type = getName(d, 'S');
    const nsDict = getDict(d, 'NS');
    const namespace = nsDict ? nsInfo(nsDict).uri : undefined;
    const mapping: MappingResult = type === undefined ? { chain: [], end: 'unmapped', remapsStandard: false, circular: false, sameNamespace: false, standard: undefined } : mapper(type, nsDict);
    const el: StructElem = {
      index: tree.elements.length,
      dict: d,
      objectNumber: raw instanceof PDFRef ? raw.objectNumber : m.objectNumbers.of(d),
      type,
      namespace,
      standardType: mapping.standard?.type,
      standardNamespace: mapping.standard?.ns,
      mapping: { chain: mapping.chain, end: mapping.end, remapsStandard: mapping.remapsStandard, circular: mapping.circular, sameNamespace: mapping.sameNamespace },
      parent,
      children: [],
      kids: [],
      depth: stack.length - 1,
      page: pageDict ? pageIndex.get(pageDict) : undefined,
      pageDict,
      lang: getText(d, 'Lang'),
      alt: getText(d, 'Alt'),
      actualText: getText(d, 'ActualText'),
      expansion: getText(d, 'E'),
      title: getText(d, 'T'),
      id: idOf(d),
      attributes: attributesOf(ctx, d, classMap),
    };
    tree.elements.push(el);
    tree.byDict.set(d, el);
    if (parent) {
      parent.children.push(el);
      parent.kids.push({ kind: 'element', element: el });
    } else tree.topLevel.push(el);
    stack.push({ parent: el, items: kidItems(ctx, d), i: 0, pageDict });
  }

  tree.parentTree = readParentTree(ctx, getDict(root, 'ParentTree'), tree.byDict);
  return tree;
}

function kidItems(ctx: PDFContext, d: PDFDict): PDFObject[] {
  const k = d.get(name('K'));
  if (k === undefined) return [];
  const v = resolve(ctx, k);
  // Keep references unresolved so an element's object number is known.
  if (v instanceof PDFArray) return v.asArray();
  return [k];
}

function idOf(d: PDFDict): string | undefined {
  const v = d.lookup(name('ID'));
  if (v === undefined) return undefined;
  return getText(d, 'ID') ?? (v instanceof PDFName ? v.decodeText() : undefined);
}

function attributesOf(ctx: PDFContext, d: PDFDict, classMap: PDFDict | undefined): AttributeObject[] {
  const out: AttributeObject[] = [];
  const add = (obj: PDFObject | undefined, fromClass: boolean) => {
    const a = asDict(resolve(ctx, obj));
    if (a) out.push({ dict: a, owner: getName(a, 'O'), fromClass });
  };
  // A: a dictionary or stream, or an array of them, each optionally followed by a revision number.
  for (const item of resolvedItems(ctx, d.get(name('A')))) if (!(item instanceof PDFNumber)) add(item, false);
  if (classMap) {
    for (const c of resolvedItems(ctx, d.get(name('C')))) {
      const cls = nameText(c);
      if (cls === undefined) continue;
      for (const item of resolvedItems(ctx, classMap.get(name(cls)))) if (!(item instanceof PDFNumber)) add(item, true);
    }
  }
  return out;
}

interface MappingResult extends RoleMapping {
  standard: { type: string; ns: string } | undefined;
}

/**
 * Follows role mapping from (type, namespace) to a standard type. Without
 * namespaces (PDF 1.x) the RoleMap is applied transitively until a standard PDF 1.7
 * type is reached; a standard type that is itself a RoleMap key is still standard
 * (ISO 32000-1 says standard types are never remapped; UA-1 and PDF/A-2 flag the
 * remapping, see `remapsStandard`). With namespaces, RoleMapNS of each namespace
 * applies; an element that claims a standard namespace (PDF 1.7 or 2.0) but whose
 * type is not one of that namespace's types stays unmapped (it is not a valid
 * element of the namespace it names).
 *
 * Circularity is judged on the raw maps, independently of standard types: a chain
 * that comes back to a (type, namespace) it visited is circular (`LI → LI` included).
 */
function roleMapper(ctx: PDFContext, roleMap: Map<string, string>, nsInfo: (d: PDFDict) => NamespaceInfo) {
  type Node = { type: string; ns: PDFDict | undefined };
  const uriOf = (ns: PDFDict | undefined) => (ns ? nsInfo(ns).uri : undefined);
  const keyOf = (n: Node) => (n.ns ? `${n.type}@${uriOf(n.ns) ?? '?'}` : n.type);
  /** The raw map entry of a node: the next node, or undefined when not mapped. */
  const next = (n: Node): Node | undefined => {
    if (!n.ns) {
      const t = roleMap.get(n.type);
      return t === undefined ? undefined : { type: t, ns: undefined };
    }
    const t = resolve(ctx, nsInfo(n.ns).roleMapNS?.get(name(n.type)));
    if (t instanceof PDFName) return { type: t.decodeText(), ns: undefined };
    if (t instanceof PDFArray) {
      const tn = nameText(resolve(ctx, t.get(0)));
      if (tn === undefined) return undefined;
      return { type: tn, ns: asDict(resolve(ctx, t.get(1))) };
    }
    return undefined;
  };
  const standardOf = (n: Node): { type: string; ns: string } | undefined => {
    const uri = n.ns ? uriOf(n.ns) : NS_PDF17;
    return uri !== undefined && isStandardIn(uri, n.type) ? { type: n.type, ns: uri } : undefined;
  };
  const isStandardNamespace = (uri: string | undefined) => uri === NS_PDF17 || uri === NS_PDF20;

  return (type: string, nsDict: PDFDict | undefined): MappingResult => {
    const first: Node = { type, ns: nsDict };
    // The raw chain (for circularity and same-namespace mapping).
    const chain: string[] = [];
    const seen = new Set<string>();
    let circular = false;
    let sameNamespace = false;
    for (let n: Node | undefined = first, step = 0; n && step < MAX_ROLE_CHAIN; step++) {
      const key = keyOf(n);
      if (seen.has(key)) {
        circular = true;
        break;
      }
      seen.add(key);
      chain.push(key);
      const nx = next(n);
      if (nx && n.ns && nx.ns && (nx.ns === n.ns || (uriOf(nx.ns) !== undefined && uriOf(nx.ns) === uriOf(n.ns)))) sameNamespace = true;
      n = nx;
    }
    const ownStandard = standardOf(first);
    const firstNext = next(first);
    const remapsStandard = ownStandard !== undefined && firstNext !== undefined && keyOf(firstNext) !== keyOf(first);
    if (ownStandard) return { chain, end: 'standard', remapsStandard, circular, sameNamespace, standard: ownStandard };
    if (nsDict && isStandardNamespace(uriOf(nsDict))) return { chain, end: 'unmapped', remapsStandard, circular, sameNamespace, standard: undefined };
    // Resolution: the first standard type along the chain.
    const visited = new Set<string>([keyOf(first)]);
    for (let n = firstNext, step = 0; n && step < MAX_ROLE_CHAIN; step++) {
      const st = standardOf(n);
      if (st) return { chain, end: 'standard', remapsStandard, circular, sameNamespace, standard: st };
      const key = keyOf(n);
      if (visited.has(key)) break;
      visited.add(key);
      n = next(n);
    }
    return { chain, end: circular ? 'circular' : 'unmapped', remapsStandard, circular, sameNamespace, standard: undefined };
  };
}

function emptyParentTree(): ParentTreeLookup {
  return { forContent: () => undefined, forObject: () => undefined, entries: new Map() };
}

function readParentTree(ctx: PDFContext, tree: PDFDict | undefined, byDict: Map<PDFDict, StructElem>): ParentTreeLookup {
  const entries = new Map<number, PDFObject>();
  if (!tree) return emptyParentTree();
  const seen = new Set<PDFDict>();
  const stack: PDFDict[] = [tree];
  while (stack.length && seen.size < MAX_NUMBER_TREE_NODES) {
    const node = stack.pop()!;
    if (seen.has(node)) continue;
    seen.add(node);
    const nums = getArray(node, 'Nums');
    if (nums) {
      for (let i = 0; i + 1 < nums.size(); i += 2) {
        const key = resolve(ctx, nums.get(i));
        const value = resolve(ctx, nums.get(i + 1));
        if (key instanceof PDFNumber && value !== undefined && !entries.has(key.asNumber())) entries.set(key.asNumber(), value);
      }
    }
    for (const kid of resolvedItems(ctx, node.get(name('Kids')))) if (kid instanceof PDFDict) stack.push(kid);
  }
  return {
    entries,
    forContent(structParents, mcid) {
      const v = entries.get(structParents);
      if (!(v instanceof PDFArray)) return undefined;
      const el = asDict(resolve(ctx, v.get(mcid)));
      return el ? byDict.get(el) : undefined;
    },
    forObject(structParent) {
      const el = asDict(entries.get(structParent));
      return el ? byDict.get(el) : undefined;
    },
  };
}

/** A short description of an element for failure examples: `Figure (mapped from MyFig)`. */
export function describeElem(e: StructElem): string {
  const t = e.type ?? '(no S)';
  if (e.standardType && e.standardType !== t) return `${e.standardType} (role-mapped from ${t})`;
  return t;
}

/** The example of a failing element: its page, object number and type. */
export function elemExample(e: StructElem, what?: string): { page?: number; objectNumber?: number; context: string } {
  return {
    ...(e.page !== undefined ? { page: e.page } : {}),
    ...(e.objectNumber !== undefined ? { objectNumber: e.objectNumber } : {}),
    context: what ? `${describeElem(e)}: ${what}` : `structure element ${describeElem(e)}`,
  };
}
