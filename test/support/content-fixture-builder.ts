/**
 * The spec types and the builder behind content-fixtures.ts: specs (images,
 * forms, streams, and the tagged resources of content-fixture-resources.ts)
 * and raw values become pdf-lib objects, one indirect object per spec object.
 */
import { deflateSync } from 'node:zlib';
import { PDFArray, PDFBool, PDFDict, PDFHexString, PDFName, PDFNull, PDFNumber, PDFObject, PDFRawStream, PDFRef, PDFString, type PDFContext } from '@cantoo/pdf-lib';
import type { Rect } from './pdf-fixtures';

// ------------------------------------------------------------------ specs

export const SPEC = Symbol('content-fixture spec');
export interface Tagged<K extends string> {
  readonly [SPEC]: K;
}

export type Value = PDFObject | Spec | string | number | boolean | null | Uint8Array | Value[] | { [key: string]: Value };
export type Spec = ImageSpec | FormSpec | FontSpec | ColourSpaceSpec | PatternSpec | ShadingSpec | SoftMaskSpec | StreamSpec;

export interface ResourcesSpec {
  fonts?: Record<string, FontSpec | Value>;
  xobjects?: Record<string, ImageSpec | FormSpec | Value>;
  /** ExtGState dictionaries as raw dicts: `{ OP: true, op: true, OPM: 1, ca: 0.5, BM: '/Multiply', SMask: softMask({…}) }`. */
  extGStates?: Record<string, Record<string, Value>>;
  colourSpaces?: Record<string, ColourSpaceSpec | Value>;
  patterns?: Record<string, PatternSpec | Value>;
  shadings?: Record<string, ShadingSpec | Value>;
  /** Anything else, merged into the resource dictionary as written. */
  raw?: Record<string, Value>;
}

export interface ImageSpec extends Tagged<'image'> {
  width: number;
  height: number;
  /** A device space name, a colour space spec, or a raw value (default DeviceRGB); ignored for image masks. */
  colourSpace?: ColourSpaceSpec | Value;
  bitsPerComponent?: number;
  /** 'FlateDecode' (default) or 'none' write real pixel data; any other filter writes placeholder bytes. */
  filter?: string;
  /** One pixel's components (0–255) repeated over the image; default a gradient. */
  pixel?: number[];
  imageMask?: boolean;
  /** Adds a soft mask image (/SMask). */
  softMask?: boolean;
  /** Adds a stencil /Mask image. */
  mask?: boolean;
  decode?: number[];
  raw?: Record<string, Value>;
}

export interface FormSpec extends Tagged<'form'> {
  content: string;
  /** Its own resources; null writes no /Resources (older files: the form uses its user's). */
  resources?: ResourcesSpec | null;
  bbox?: Rect;
  matrix?: [number, number, number, number, number, number];
  /** Transparency group: `{ CS: '/DeviceRGB', I: true, K: false }` (S /Transparency added). */
  group?: Record<string, Value>;
  raw?: Record<string, Value>;
}

export interface FontSpec extends Tagged<'font'> {
  build(b: Builder): PDFObject;
}
export interface ColourSpaceSpec extends Tagged<'colour-space'> {
  build(b: Builder): PDFObject;
  /** Colour components (for image data written in the space). */
  components: number;
}
export interface PatternSpec extends Tagged<'pattern'> {
  build(b: Builder): PDFObject;
}
export interface ShadingSpec extends Tagged<'shading'> {
  build(b: Builder): PDFObject;
}
export interface SoftMaskSpec extends Tagged<'soft-mask'> {
  build(b: Builder): PDFObject;
}
/** Any stream: a dictionary and bytes (e.g. a raw ICC profile or a CMap). */
export interface StreamSpec extends Tagged<'stream'> {
  dict: Record<string, Value>;
  data: Uint8Array | string;
  /** Flate-compress the data (default true). */
  compress?: boolean;
}

export const image = (s: Omit<ImageSpec, typeof SPEC>): ImageSpec => ({ [SPEC]: 'image', ...s });
export const form = (s: Omit<FormSpec, typeof SPEC>): FormSpec => ({ [SPEC]: 'form', ...s });
export const stream = (s: Omit<StreamSpec, typeof SPEC>): StreamSpec => ({ [SPEC]: 'stream', ...s });
export const tagged = <K extends 'font' | 'pattern' | 'shading' | 'soft-mask'>(kind: K, build: (b: Builder) => PDFObject) =>
  ({ [SPEC]: kind, build }) as Tagged<K> & { build(b: Builder): PDFObject };
export const colourSpace = (components: number, build: (b: Builder) => PDFObject): ColourSpaceSpec => ({ [SPEC]: 'colour-space', build, components });

/** Turns specs and raw values into pdf-lib objects, one indirect object per spec object. */
export class Builder {
  private readonly refs = new Map<object, PDFRef>();
  constructor(readonly context: PDFContext) {}

  ref(obj: PDFObject): PDFRef {
    return obj instanceof PDFRef ? obj : this.context.register(obj);
  }

  value(v: Value): PDFObject {
    if (v instanceof PDFObject) return v;
    if (v === null) return PDFNull;
    if (typeof v === 'number') return PDFNumber.of(v);
    if (typeof v === 'boolean') return v ? PDFBool.True : PDFBool.False;
    if (typeof v === 'string') return v.startsWith('/') ? PDFName.of(v.slice(1)) : PDFString.of(v);
    if (v instanceof Uint8Array) return PDFHexString.of(Buffer.from(v).toString('hex'));
    if (Array.isArray(v)) {
      const arr = PDFArray.withContext(this.context);
      for (const item of v) arr.push(this.value(item));
      return arr;
    }
    if (SPEC in v) return this.spec(v as Spec);
    const dict = PDFDict.withContext(this.context);
    for (const [k, item] of Object.entries(v)) if (item !== undefined) dict.set(PDFName.of(k), this.value(item as Value));
    return dict;
  }

  resources(r: ResourcesSpec): PDFDict {
    const out: Record<string, Value> = {};
    const put = (key: string, entries: Record<string, Value> | undefined) => {
      if (entries && Object.keys(entries).length) out[key] = entries;
    };
    put('Font', r.fonts as Record<string, Value>);
    put('XObject', r.xobjects as Record<string, Value>);
    put('ExtGState', r.extGStates as Record<string, Value> | undefined);
    put('ColorSpace', r.colourSpaces as Record<string, Value>);
    put('Pattern', r.patterns as Record<string, Value>);
    put('Shading', r.shadings as Record<string, Value>);
    return this.value({ ...out, ...(r.raw ?? {}) }) as PDFDict;
  }

  /**
   * A stream (not yet registered), its data Flate-compressed unless `compress`
   * is false or the dictionary states a /Filter of its own (then the data is
   * written as given: a way to build undecodable streams).
   */
  stream(dict: Record<string, Value>, data: Uint8Array | string, compress = true): PDFRawStream {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    const d = this.value(dict) as PDFDict;
    if (d.has(PDFName.of('Filter'))) compress = false;
    const body = compress ? deflateSync(bytes) : bytes;
    if (compress) d.set(PDFName.of('Filter'), PDFName.of('FlateDecode'));
    d.set(PDFName.of('Length'), PDFNumber.of(body.length));
    return PDFRawStream.of(d, body);
  }

  private spec(s: Spec): PDFObject {
    const known = this.refs.get(s);
    if (known) return known;
    // Reserve the reference first so a spec that refers to itself (a form painting itself) is a cycle, not a recursion.
    const ref = this.context.nextRef();
    this.refs.set(s, ref);
    const obj = this.build(s);
    this.context.assign(ref, obj instanceof PDFRef ? this.context.lookup(obj)! : obj);
    return ref;
  }

  private build(s: Spec): PDFObject {
    switch (s[SPEC]) {
      case 'image':
        return this.image(s as ImageSpec);
      case 'form':
        return this.form(s as FormSpec);
      case 'stream': {
        const st = s as StreamSpec;
        return this.stream(st.dict, st.data, st.compress ?? true);
      }
      default:
        return (s as FontSpec).build(this);
    }
  }

  private form(f: FormSpec): PDFObject {
    const dict: Record<string, Value> = { Type: '/XObject', Subtype: '/Form', BBox: f.bbox ?? [0, 0, 1000, 1000] };
    if (f.resources !== null) dict['Resources'] = this.resources(f.resources ?? {});
    if (f.matrix) dict['Matrix'] = f.matrix;
    if (f.group) dict['Group'] = { Type: '/Group', S: '/Transparency', ...f.group };
    return this.stream({ ...dict, ...(f.raw ?? {}) }, f.content);
  }

  private image(i: ImageSpec): PDFObject {
    const bpc = i.imageMask ? 1 : (i.bitsPerComponent ?? 8);
    const cs = i.colourSpace ?? 'DeviceRGB';
    const comps = i.imageMask ? 1 : componentsOf(cs);
    const dict: Record<string, Value> = { Type: '/XObject', Subtype: '/Image', Width: i.width, Height: i.height, BitsPerComponent: bpc };
    if (i.imageMask) dict['ImageMask'] = true;
    else dict['ColorSpace'] = typeof cs === 'string' && !cs.startsWith('/') ? `/${cs}` : cs;
    if (i.decode) dict['Decode'] = i.decode;
    if (i.softMask) dict['SMask'] = image({ width: i.width, height: i.height, colourSpace: 'DeviceGray', pixel: [128] });
    if (i.mask) dict['Mask'] = image({ width: i.width, height: i.height, imageMask: true });
    Object.assign(dict, i.raw ?? {});
    const filter = i.filter ?? 'FlateDecode';
    const rowBytes = Math.ceil((i.width * comps * bpc) / 8);
    const raw = new Uint8Array(rowBytes * i.height);
    if (i.pixel && bpc === 8) for (let p = 0; p < i.width * i.height; p++) raw.set(i.pixel.slice(0, comps), p * comps);
    else for (let y = 0; y < i.height; y++) raw.fill((y * 13) & 0xff, y * rowBytes, (y + 1) * rowBytes);
    if (filter === 'FlateDecode') return this.stream(dict, raw);
    if (filter === 'none') return this.stream(dict, raw, false);
    // An image codec we do not encode: placeholder bytes under the stated filter.
    return this.stream({ ...dict, Filter: `/${filter}` }, new Uint8Array(64), false);
  }
}

function componentsOf(cs: Value): number {
  if (typeof cs === 'string') {
    const n = cs.replace(/^\//, '');
    return n === 'DeviceCMYK' || n === 'CMYK' ? 4 : n === 'DeviceGray' || n === 'G' ? 1 : 3;
  }
  if (typeof cs === 'object' && cs !== null && SPEC in cs && (cs as Spec)[SPEC] === 'colour-space') return (cs as ColourSpaceSpec).components;
  return 3;
}
