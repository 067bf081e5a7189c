/**
 * PDF functions (ISO 32000-1 7.10) evaluated, for converting spot tints to
 * their alternate colour: Type 2 (exponential), Type 3 (stitching), Type 4
 * (PostScript calculator) and Type 0 (sampled, 8- or 16-bit, linear
 * interpolation along one input). Anything else, or a malformed function,
 * gives null and the caller leaves that colour alone.
 */
import { PDFArray, PDFStream, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { asDict, getArray, getNumber, numbersOf, resolve, streamBytes } from '../../core/pdf-objects';

export type PdfFunction = (inputs: readonly number[]) => number[] | null;

const MAX_NESTING = 8;
const clip = (v: number, lo: number | undefined, hi: number | undefined): number => Math.min(hi ?? v, Math.max(lo ?? v, v));

/** A function object (or an array of 1-output functions, one per output) as an evaluator; null when unsupported. */
export function pdfFunction(context: PDFContext, obj: PDFObject | undefined, depth = 0): PdfFunction | null {
  const fnObj = resolve(context, obj);
  if (depth > MAX_NESTING) return null;
  if (fnObj instanceof PDFArray) {
    const parts: PdfFunction[] = [];
    for (let i = 0; i < fnObj.size(); i++) {
      const f = pdfFunction(context, fnObj.get(i), depth + 1);
      if (!f) return null;
      parts.push(f);
    }
    return (x) => {
      const out: number[] = [];
      for (const f of parts) {
        const v = f(x);
        if (!v || v.length === 0) return null;
        out.push(v[0]!);
      }
      return out;
    };
  }
  const dict = asDict(fnObj);
  if (!dict) return null;
  const domain = numbersOf(getArray(dict, 'Domain')) ?? [];
  const range = numbersOf(getArray(dict, 'Range'));
  let inner: PdfFunction | null;
  switch (getNumber(dict, 'FunctionType')) {
    case 2: {
      const c0 = numbersOf(getArray(dict, 'C0')) ?? [0];
      const c1 = numbersOf(getArray(dict, 'C1')) ?? [1];
      const n = getNumber(dict, 'N') ?? 1;
      if (c0.length !== c1.length) return null;
      inner = (x) => {
        const p = Math.pow(x[0] ?? 0, n);
        return Number.isFinite(p) ? c0.map((a, i) => a + p * (c1[i]! - a)) : null;
      };
      break;
    }
    case 3: {
      const fns = getArray(dict, 'Functions');
      const bounds = numbersOf(getArray(dict, 'Bounds')) ?? [];
      const encode = numbersOf(getArray(dict, 'Encode')) ?? [];
      if (!fns || domain.length < 2) return null;
      const parts: PdfFunction[] = [];
      for (let i = 0; i < fns.size(); i++) {
        const f = pdfFunction(context, fns.get(i), depth + 1);
        if (!f) return null;
        parts.push(f);
      }
      if (parts.length === 0 || bounds.length !== parts.length - 1 || encode.length < 2 * parts.length) return null;
      inner = (x) => {
        const t = x[0] ?? 0;
        let k = 0;
        while (k < bounds.length && t >= bounds[k]!) k++;
        const lo = k === 0 ? domain[0]! : bounds[k - 1]!;
        const hi = k === bounds.length ? domain[1]! : bounds[k]!;
        const e0 = encode[2 * k]!;
        const e1 = encode[2 * k + 1]!;
        return parts[k]!([hi === lo ? e0 : e0 + ((t - lo) * (e1 - e0)) / (hi - lo)]);
      };
      break;
    }
    case 4:
      inner = fnObj instanceof PDFStream ? calculator(streamBytes(fnObj)) : null;
      break;
    case 0:
      inner = fnObj instanceof PDFStream ? sampled(fnObj, domain) : null;
      break;
    default:
      return null;
  }
  if (!inner) return null;
  const f = inner;
  return (x) => {
    const clipped = x.map((v, i) => clip(v, domain[2 * i], domain[2 * i + 1]));
    const y = f(clipped);
    if (!y || y.some((v) => !Number.isFinite(v))) return null;
    return range ? y.map((v, i) => clip(v, range[2 * i], range[2 * i + 1])) : y;
  };
}

/** Type 0 with one input: linear interpolation between samples, mapped through Encode and Decode. */
function sampled(stream: PDFStream, domain: number[]): PdfFunction | null {
  const d = stream.dict;
  const size = numbersOf(getArray(d, 'Size')) ?? [];
  const bps = getNumber(d, 'BitsPerSample');
  const range = numbersOf(getArray(d, 'Range')) ?? [];
  const n = Math.floor(range.length / 2);
  if (size.length !== 1 || (bps !== 8 && bps !== 16) || n === 0 || domain.length < 2) return null;
  const data = streamBytes(stream);
  const count = size[0]!;
  if (!data || !(count >= 1) || data.length < count * n * (bps / 8)) return null;
  const encode = numbersOf(getArray(d, 'Encode')) ?? [0, count - 1];
  const decode = numbersOf(getArray(d, 'Decode')) ?? range;
  const max = bps === 8 ? 255 : 65535;
  const sample = (i: number, c: number): number => {
    const at = (i * n + c) * (bps / 8);
    return bps === 8 ? data[at]! : (data[at]! << 8) | data[at + 1]!;
  };
  return (x) => {
    const t = x[0] ?? 0;
    const span = domain[1]! - domain[0]!;
    const e = clip(encode[0]! + (span === 0 ? 0 : ((t - domain[0]!) * (encode[1]! - encode[0]!)) / span), 0, count - 1);
    const i0 = Math.floor(e);
    const i1 = Math.min(count - 1, i0 + 1);
    const f = e - i0;
    const out: number[] = [];
    for (let c = 0; c < n; c++) {
      const s = sample(i0, c) * (1 - f) + sample(i1, c) * f;
      out.push(decode[2 * c]! + (s / max) * (decode[2 * c + 1]! - decode[2 * c]!));
    }
    return out;
  };
}

type Token = number | boolean | string | Token[];

/** A PostScript calculator function (Type 4): parsed once, run on a stack per call. */
function calculator(bytes: Uint8Array | null): PdfFunction | null {
  if (!bytes) return null;
  const text = Buffer.from(bytes).toString('latin1');
  let pos = 0;
  const parse = (): Token[] | null => {
    const out: Token[] = [];
    while (pos < text.length) {
      const c = text[pos]!;
      if (/\s/.test(c)) pos++;
      else if (c === '{') {
        pos++;
        const block = parse();
        if (!block) return null;
        out.push(block);
      } else if (c === '}') {
        pos++;
        return out;
      } else {
        const m = /^[^\s{}]+/.exec(text.slice(pos, pos + 64));
        if (!m) return null;
        pos += m[0].length;
        const v = Number(m[0]);
        out.push(m[0] === 'true' ? true : m[0] === 'false' ? false : Number.isFinite(v) ? v : m[0]);
      }
    }
    return null;
  };
  while (pos < text.length && text[pos] !== '{') pos++;
  pos++;
  const program = parse();
  if (!program) return null;
  return (x) => {
    const stack: (number | boolean)[] = [...x];
    try {
      run(program, stack, 0);
    } catch {
      return null;
    }
    return stack.every((v) => typeof v === 'number') ? (stack as number[]) : null;
  };
}

const MAX_STACK = 100;

function run(program: Token[], s: (number | boolean)[], depth: number): void {
  if (depth > 32) throw new Error('nested too deep');
  const num = (): number => {
    const v = s.pop();
    if (typeof v !== 'number') throw new Error('type');
    return v;
  };
  const any = (): number | boolean => {
    if (s.length === 0) throw new Error('underflow');
    return s.pop()!;
  };
  for (let i = 0; i < program.length; i++) {
    const t = program[i]!;
    if (s.length > MAX_STACK) throw new Error('overflow');
    if (typeof t === 'number' || typeof t === 'boolean') {
      s.push(t);
      continue;
    }
    if (Array.isArray(t)) {
      // A block: the operand of the if / ifelse that follows.
      const next = program[i + 1];
      if (next === 'if') {
        const cond = any();
        if (cond === true) run(t, s, depth + 1);
        i++;
      } else if (Array.isArray(next) && program[i + 2] === 'ifelse') {
        const cond = any();
        run(cond === true ? t : next, s, depth + 1);
        i += 2;
      } else throw new Error('stray block');
      continue;
    }
    switch (t) {
      case 'add': { const b = num(); s.push(num() + b); break; }
      case 'sub': { const b = num(); s.push(num() - b); break; }
      case 'mul': { const b = num(); s.push(num() * b); break; }
      case 'div': { const b = num(); s.push(num() / b); break; }
      case 'idiv': { const b = Math.trunc(num()); s.push(Math.trunc(Math.trunc(num()) / b)); break; }
      case 'mod': { const b = Math.trunc(num()); s.push(Math.trunc(num()) % b); break; }
      case 'neg': s.push(-num()); break;
      case 'abs': s.push(Math.abs(num())); break;
      case 'ceiling': s.push(Math.ceil(num())); break;
      case 'floor': s.push(Math.floor(num())); break;
      case 'round': s.push(Math.floor(num() + 0.5)); break;
      case 'truncate': case 'cvi': s.push(Math.trunc(num())); break;
      case 'cvr': s.push(num()); break;
      case 'sqrt': s.push(Math.sqrt(num())); break;
      case 'sin': s.push(Math.sin((num() * Math.PI) / 180)); break;
      case 'cos': s.push(Math.cos((num() * Math.PI) / 180)); break;
      case 'atan': { const b = num(); const a = num(); const deg = (Math.atan2(a, b) * 180) / Math.PI; s.push(deg < 0 ? deg + 360 : deg); break; }
      case 'exp': { const b = num(); s.push(Math.pow(num(), b)); break; }
      case 'ln': s.push(Math.log(num())); break;
      case 'log': s.push(Math.log10(num())); break;
      case 'eq': { const b = any(); s.push(any() === b); break; }
      case 'ne': { const b = any(); s.push(any() !== b); break; }
      case 'gt': { const b = num(); s.push(num() > b); break; }
      case 'ge': { const b = num(); s.push(num() >= b); break; }
      case 'lt': { const b = num(); s.push(num() < b); break; }
      case 'le': { const b = num(); s.push(num() <= b); break; }
      case 'and': case 'or': case 'xor': {
        const b = any();
        const a = any();
        if (typeof a === 'boolean' && typeof b === 'boolean') s.push(t === 'and' ? a && b : t === 'or' ? a || b : a !== b);
        else if (typeof a === 'number' && typeof b === 'number') s.push(t === 'and' ? a & b : t === 'or' ? a | b : a ^ b);
        else throw new Error('type');
        break;
      }
      case 'not': { const a = any(); s.push(typeof a === 'boolean' ? !a : ~a); break; }
      case 'bitshift': { const b = num(); const a = num(); s.push(b >= 0 ? a << b : a >> -b); break; }
      case 'true': s.push(true); break;
      case 'false': s.push(false); break;
      case 'pop': any(); break;
      case 'exch': { const b = any(); const a = any(); s.push(b, a); break; }
      case 'dup': { const a = any(); s.push(a, a); break; }
      case 'copy': { const n = num(); if (n < 0 || n > s.length) throw new Error('range'); s.push(...s.slice(s.length - n)); break; }
      case 'index': { const n = num(); if (n < 0 || n >= s.length) throw new Error('range'); s.push(s[s.length - 1 - n]!); break; }
      case 'roll': {
        const j = num();
        const n = num();
        if (n < 0 || n > s.length) throw new Error('range');
        if (n === 0) break;
        const part = s.splice(s.length - n, n);
        const k = ((j % n) + n) % n;
        s.push(...part.slice(n - k), ...part.slice(0, n - k));
        break;
      }
      default:
        throw new Error(`unknown operator ${String(t)}`);
    }
  }
}

