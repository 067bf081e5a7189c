/**
 * XMP value types (XMP Specification part 1, 8.2 "Core value types" and part 2
 * "Schemas"): whether a property's value has the shape and lexical form its
 * type requires. A Date is the ISO 8601 subset XMP allows, an Integer is
 * digits with an optional sign, a Bag is an rdf:Bag, a structure has only the
 * fields its type defines (each of the right type), a Lang Alt is an rdf:Alt of
 * simple values with xml:lang.
 */
import type { XmpNode } from './xmp-model';
import { predefinedStruct, type Edition, type StructType } from './schemas';

export interface TypeContext {
  edition: Edition;
  /** Structure types described by pdfaType entries of extension schemas, by type name. */
  custom: ReadonlyMap<string, StructType>;
}

const SIMPLE: Readonly<Record<string, RegExp | null>> = {
  text: null,
  agentname: null,
  propername: null,
  mimetype: null,
  locale: null,
  renditionclass: null,
  xpath: null,
  uri: null,
  url: null,
  guid: null,
  part: null,
  integer: /^[+-]?\d+$/,
  real: /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/,
  boolean: /^(?:True|False)$/,
  rational: /^[+-]?\d+\/[+-]?\d+$/,
  // Degrees,minutes(,seconds | .fraction) followed by a compass direction.
  gpscoordinate: /^\d{1,3},\d{1,2}(?:,\d{1,2}|\.\d+)?[NSEW]$/,
  // XMP part 1, 8.2.1.2: YYYY[-MM[-DD[Thh:mm[:ss[.s+]]TZD]]], TZD = Z | +hh:mm | -hh:mm.
  date: /^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01])(?:T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)?)?)?)?$/,
};

/** Normalised form of a value type name: array form and item type, or a single type. */
export function parseType(type: string): { form: 'bag' | 'seq' | 'alt' | 'langalt' | null; item: string } {
  let t = type.trim().replace(/\s+/g, ' ');
  const choice = /^(?:closed|open) choice of (.+)$/i.exec(t) ?? /^choice of (.+)$/i.exec(t);
  if (choice) t = choice[1]!;
  if (/^lang ?alt$/i.test(t) || /^alt lang$/i.test(t)) return { form: 'langalt', item: 'Text' };
  const arr = /^(bag|seq|alt) (.+)$/i.exec(t);
  if (arr) {
    let item = arr[2]!;
    const c = /^(?:closed|open) choice of (.+)$/i.exec(item);
    if (c) item = c[1]!;
    return { form: arr[1]!.toLowerCase() as 'bag' | 'seq' | 'alt', item };
  }
  return { form: null, item: t };
}

/** True when the type name is one XMP or the packet's extension schemas define. */
export function isKnownType(type: string, ctx: TypeContext): boolean {
  const { item } = parseType(type);
  if (/^(?:closed|open) choice$/i.test(type.trim())) return true;
  return Object.hasOwn(SIMPLE, item.toLowerCase()) || predefinedStruct('2005', item) !== undefined || ctx.custom.has(item);
}

/** Why a value does not have the type (null when it does). */
export function typeProblem(node: XmpNode, type: string, ctx: TypeContext, depth = 0): string | null {
  if (depth > 20) return null;
  const { form, item } = parseType(type);
  if (form === 'langalt') {
    if (node.kind !== 'array' || node.form !== 'Alt') return `is a ${describe(node)}, not a Lang Alt`;
    for (const it of node.items) {
      if (it.kind !== 'simple') return `has a Lang Alt item that is a ${describe(it)}`;
      if (it.lang === undefined) return 'has a Lang Alt item without xml:lang';
    }
    return null;
  }
  if (form) {
    const want = form === 'bag' ? 'Bag' : form === 'seq' ? 'Seq' : 'Alt';
    if (node.kind !== 'array' || node.form !== want) return `is a ${describe(node)}, not an rdf:${want}`;
    for (const it of node.items) {
      const p = typeProblem(it, item, ctx, depth + 1);
      if (p) return `has an item that ${p}`;
    }
    return null;
  }
  return singleProblem(node, item, ctx, depth);
}

function singleProblem(node: XmpNode, type: string, ctx: TypeContext, depth: number): string | null {
  const key = type.toLowerCase();
  if (Object.hasOwn(SIMPLE, key)) {
    if (node.kind !== 'simple') return `is a ${describe(node)}, not a simple ${type} value`;
    const re = SIMPLE[key];
    if (re && !re.test(node.value.trim() === node.value ? node.value : node.value.trim())) return `"${clip(node.value)}" is not a valid ${type}`;
    return null;
  }
  const struct = ctx.custom.get(type) ?? predefinedStruct(ctx.edition, type);
  if (!struct) return null; // An unknown type is the extension schema rule's failure, not this value's.
  if (node.kind !== 'struct') return `is a ${describe(node)}, not a ${type} structure`;
  for (const f of node.fields) {
    const ft = f.ns === struct.ns && Object.hasOwn(struct.fields, f.name) ? struct.fields[f.name] : undefined;
    if (ft === undefined) return `has field ${f.prefix}:${f.name}, which the ${type} structure does not define`;
    const p = typeProblem(f.node, ft, ctx, depth + 1);
    if (p) return `has field ${f.prefix}:${f.name} that ${p}`;
  }
  return null;
}

function describe(node: XmpNode): string {
  if (node.kind === 'simple') return 'simple value';
  if (node.kind === 'struct') return 'structure';
  return `rdf:${node.form}`;
}

const clip = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);
