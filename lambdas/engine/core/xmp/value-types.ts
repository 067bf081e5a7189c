/**
 * XMP value types (XMP Specification part 1, 8.2 "Core value types" and part 2
 * "Schemas"): whether a property's value has the shape and lexical form its
 * type requires. A Date is what the XMP toolkit's ISO 8601 reader accepts
 * (xmp-date.ts), an Integer is digits with an optional sign, a Bag is an
 * rdf:Bag, a structure has only the fields its type defines (each of the right
 * type), a Lang Alt is an rdf:Alt in which some item carries xml:lang.
 *
 * Where the specification leaves the lexical form open we judge as veraPDF's
 * type validators do (veraPDF-library, model/tools/xmp/validators): URI, URL,
 * Locale, ProperName, AgentName, RenditionClass and Rational are any simple
 * text (the TWG chose text checks for URI and URL), MIMEType is type/subtype,
 * and closed choices are not enforced.
 */
import type { XmpNode } from './xmp-model';
import { predefinedStruct, type Edition, type StructType } from './schemas';
import { isXmpDate } from './xmp-date';

export interface TypeContext {
  edition: Edition;
  /** Structure types described by pdfaType entries of extension schemas, by type name. */
  custom: ReadonlyMap<string, StructType>;
}

const SIMPLE: Readonly<Record<string, RegExp | null>> = {
  text: null,
  agentname: null,
  propername: null,
  mimetype: /^[-\w+.]+\/[-\w+.]+$/,
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
  // XMP writes a Rational as "n/d", but veraPDF checks it as text: "72" or "2.8" is not a 6.6.2.3.1 violation.
  rational: null,
  // Checked by edition in GPS_COORDINATE.
  gpscoordinate: null,
  // Checked by isXmpDate.
  date: null,
  // The Marker fields startTime and duration take any value (veraPDF's "any").
  any: null,
};

/**
 * Degrees,minutes followed by seconds or a decimal fraction of minutes, then a
 * compass direction. XMP 2004 (PDF/A-1) writes each number with two digits,
 * XMP 2005 allows up to three degree digits (as veraPDF reads both).
 */
const GPS_COORDINATE: Readonly<Record<Edition, RegExp>> = {
  '2004': /^\d{2},\d{2}[,.]\d{2}[NSEW]$/,
  '2005': /^\d{1,3},\d{1,2}(?:,\d{1,2}|\.\d+)[NSEW]$/,
};

/**
 * Normalised form of a value type name: array form and item type, or a single
 * type. Read as veraPDF simplifies names (ValidatorsContainer.getSimplifiedType):
 * "open/closed choice (of)" is dropped wherever it stands, what remains empty
 * is Text, and a bare "Bag", "Seq" or "Alt" is an array of Text.
 */
export function parseType(type: string): { form: 'bag' | 'seq' | 'alt' | 'langalt' | null; item: string } {
  let t = type
    .trim()
    .replace(/\s+/g, ' ')
    .replace(/(?:open |closed )?(?:choice |choice$)(?:of )?/gi, '')
    .trim();
  if (t === '') t = 'Text';
  if (/^lang ?alt$/i.test(t) || /^alt lang$/i.test(t)) return { form: 'langalt', item: 'Text' };
  if (/^(?:bag|seq|alt)$/i.test(t)) t += ' Text';
  const arr = /^(bag|seq|alt) (.+)$/i.exec(t);
  if (arr) return { form: arr[1]!.toLowerCase() as 'bag' | 'seq' | 'alt', item: arr[2]! };
  return { form: null, item: t };
}

/** True when the type name is one XMP or the packet's extension schemas define. */
export function isKnownType(type: string, ctx: TypeContext): boolean {
  const { item } = parseType(type);
  const key = item.toLowerCase();
  // "Any" is how veraPDF's tables type two Marker fields; it is not a name an extension schema may use.
  if (key === 'any') return false;
  return Object.hasOwn(SIMPLE, key) || structType({ edition: '2005', custom: ctx.custom }, item) !== undefined;
}

/**
 * A structure type by name: the extension schemas' own first, then XMP's. Names
 * match without regard to case, as veraPDF lower-cases every type name it
 * registers or looks up ("resourceRef" names ResourceRef).
 */
function structType(ctx: TypeContext, name: string): StructType | undefined {
  const exact = ctx.custom.get(name) ?? predefinedStruct(ctx.edition, name);
  if (exact) return exact;
  const key = name.toLowerCase();
  for (const [n, t] of ctx.custom) if (n.toLowerCase() === key) return t;
  return predefinedStruct(ctx.edition, name, true);
}

/** Why a value does not have the type (null when it does). */
export function typeProblem(node: XmpNode, type: string, ctx: TypeContext, depth = 0): string | null {
  if (depth > 20) return null;
  const { form, item } = parseType(type);
  if (form === 'langalt') {
    if (node.kind !== 'array' || node.form !== 'Alt') return `is a ${describe(node)}, not a Lang Alt`;
    // The XMP toolkit marks an rdf:Alt as alt-text as soon as one item has xml:lang, and veraPDF's
    // LangAltValidator asks only for that mark (or an empty Alt); it does not require it on every item.
    if (node.items.length && !node.items.some((it) => it.lang !== undefined)) return 'is an rdf:Alt none of whose items has xml:lang, not a Lang Alt';
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
    if (key === 'any') return null;
    if (node.kind !== 'simple') return `is a ${describe(node)}, not a simple ${type} value`;
    // White space around the value is forgiven (veraPDF reads the value untrimmed; we are the more lenient here).
    const value = node.value.trim();
    const valid = key === 'date' ? isXmpDate(value) : (key === 'gpscoordinate' ? GPS_COORDINATE[ctx.edition] : SIMPLE[key])?.test(value) ?? true;
    if (!valid) return `"${clip(node.value)}" is not a valid ${type}`;
    return null;
  }
  const struct = structType(ctx, type);
  if (!struct) return null; // An unknown type is the extension schema rule's failure, not this value's.
  // A pdfaType description that lists no fields describes no structure; veraPDF then checks the
  // value as Text (ValidatorsContainerCreator.registerTypeNode). A structure given such a type is
  // the extension schema's fault, reported by extensionStructuresWithoutFields under 6.6.2.3.3.
  if (!Object.keys(struct.fields).length) return node.kind === 'simple' ? null : `is a ${describe(node)}, but the ${type} value type describes no fields, so it is Text`;
  if (node.kind !== 'struct') return `is a ${describe(node)}, not a ${type} structure`;
  for (const f of node.fields) {
    const ft = f.ns === struct.ns && Object.hasOwn(struct.fields, f.name) ? struct.fields[f.name] : undefined;
    if (ft === undefined) return `has field ${f.prefix}:${f.name}, which the ${type} structure does not define`;
    const p = typeProblem(f.node, ft, ctx, depth + 1);
    if (p) return `has field ${f.prefix}:${f.name} that ${p}`;
  }
  return null;
}

/**
 * The name of an extension value type that describes no fields but is given a
 * structure (directly or as an array item), or null. The value type
 * description is then what is wrong: it does not describe the structure the
 * packet writes (ISO 19005-2, 6.6.2.3.3).
 */
export function undescribedStructure(node: XmpNode, type: string, ctx: TypeContext): string | null {
  const { form, item } = parseType(type);
  if (form === 'langalt') return null;
  if (form) return node.kind === 'array' ? (node.items.map((it) => undescribedStructure(it, item, ctx)).find((x) => x !== null) ?? null) : null;
  if (Object.hasOwn(SIMPLE, item.toLowerCase())) return null;
  const struct = structType(ctx, item);
  return struct && !Object.keys(struct.fields).length && node.kind === 'struct' ? item : null;
}

function describe(node: XmpNode): string {
  if (node.kind === 'simple') return 'simple value';
  if (node.kind === 'struct') return 'structure';
  return `rdf:${node.form}`;
}

const clip = (s: string): string => (s.length > 40 ? `${s.slice(0, 40)}…` : s);
