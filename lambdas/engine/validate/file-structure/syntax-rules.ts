/**
 * File syntax (ISO 19005 6.1): header, trailer, cross-reference table,
 * hexadecimal strings, stream objects and indirect object headers, judged on
 * the raw bytes (syntax-scan.ts) because pdf-lib repairs or forgets them.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFObjectParser, PDFRawStream, PDFRef, PDFStream } from '@cantoo/pdf-lib';
import { bytesOf, has } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { ValidationModel } from '../model';
import { condition, eachOf, type Example, type Rule } from '../rule';
import { contentValues } from './content-values';
import { reachableObjects, syntaxScan, type ValueHit } from './syntax-scan';

/** A value hit in an object the document uses (hits outside any object, e.g. in a trailer, count). */
export const inDocument = (m: ValidationModel, objectNumber: number | undefined): boolean => objectNumber === undefined || reachableObjects(m).has(objectNumber);
const reachableStreams = (m: ValidationModel) => syntaxScan(m).streams.filter((s) => inDocument(m, s.objectNumber));

const ALL = { 1: '', 2: '', 3: '', 4: '' };
const same = (clause: string) => Object.fromEntries(Object.keys(ALL).map((k) => [k, clause]));

const UA1_HEADER = /^%PDF-1\.[0-7]$/;
const HEADER_PATTERN: Record<number, RegExp> = { 1: /^%PDF-\d\.\d/, 2: /^%PDF-1\.[0-7]$/, 3: /^%PDF-1\.[0-7]$/, 4: /^%PDF-2\.\d$/ };

/** Trailer dictionaries parsed from their raw text, in file order. */
const rawTrailers = fact('file-structure/trailers', (m): PDFDict[] => {
  const out: PDFDict[] = [];
  for (const offset of syntaxScan(m).trailerOffsets) {
    try {
      let p = offset + 7;
      while (p < m.bytes.length && m.bytes[p] !== 0x3c) p++;
      const parser = PDFObjectParser.forBytes(m.bytes.subarray(p, Math.min(m.bytes.length, p + 65536)), m.context);
      const dict = parser.parseObject();
      if (dict instanceof PDFDict) out.push(dict);
    } catch {
      // A trailer that does not parse holds no ID to compare.
    }
  }
  return out;
});

/** The file identifier of a trailer (first element's bytes, hex form), or null. */
function trailerId(m: ValidationModel, trailer: PDFDict | undefined): string | null {
  const id = trailer?.get(PDFName.of('ID'));
  const arr = id instanceof PDFRef ? m.context.lookup(id) : id;
  if (!(arr instanceof PDFArray) || arr.size() === 0) return null;
  const parts = arr.asArray().map((x) => bytesOf(x instanceof PDFRef ? m.context.lookup(x) : x));
  if (!parts[0] || parts[0].length === 0) return null;
  return parts.map((p) => Buffer.from(p ?? []).toString('hex')).join('/');
}


/** Linearized files: the first object carries a Linearized entry. */
const isLinearized = fact('file-structure/linearized', (m): boolean => {
  const first = syntaxScan(m).objects[0];
  if (!first) return false;
  const obj = m.context.lookup(PDFRef.of(first.objectNumber, first.generation));
  return obj instanceof PDFDict && has(obj, 'Linearized');
});

const hitExample = (h: ValueHit, what: string): Example => ({ ...(h.objectNumber !== undefined ? { objectNumber: h.objectNumber } : {}), context: `${what} ${h.text}` });

export const SYNTAX_RULES: readonly Rule[] = [
  {
    id: 'pdfa.file.header',
    clauses: { ...same('6.1.2'), ua1: '6.1' },
    description: (p) =>
      p.family === 'pdfua'
        ? 'The file header shall be "%PDF-1.n" (n from 0 to 7) followed by a single end-of-line marker: a PDF/UA-1 file is an ISO 32000-1 file.'
        : p.part === 4
        ? 'The file header shall begin at byte 0 and consist of "%PDF-2.n" followed by a single end-of-line marker.'
        : p.part === 1
          ? 'The % character of the file header shall occur at byte offset 0 of the file, starting "%PDF-n.m".'
          : 'The file header shall begin at byte 0 and consist of "%PDF-1.n" (n from 0 to 7) followed by a single end-of-line marker.',
    test: (f, p) =>
      condition(
        // PDF/UA-1 (ISO 14289-1 6.1) judges the version the header declares; where it starts is PDF/A's own requirement.
        p.family === 'pdfua' ? UA1_HEADER.test(f.pdf.header.line) : f.pdf.header.offset === 0 && HEADER_PATTERN[p.part]!.test(f.pdf.header.line),
        // A file read without a header (load-pdf.ts reads a PDF body that lacks one) has no offset to give.
        { context: f.pdf.header.offset < 0 ? 'no %PDF- header' : `header "${f.pdf.header.line}" at byte ${f.pdf.header.offset}` },
      ),
  },
  {
    id: 'pdfa.file.binary-comment',
    clauses: same('6.1.2'),
    description: 'The header line shall be followed by a comment of a % character and at least four bytes with values above 127.',
    test: (f) => condition(f.pdf.header.binaryComment, { context: 'no binary comment after the header' }),
  },
  {
    id: 'pdfa.trailer.id',
    clauses: same('6.1.3'),
    description: 'The file trailer dictionary shall contain the ID keyword (file identifiers); in a linearized file, the first page trailer shall.',
    test: (f) => {
      const trailers = rawTrailers(f);
      // Files with only a cross-reference stream have no trailer keyword: pdf-lib's trailer stands in.
      if (trailers.length === 0) return condition(f.facts.trailerId, { context: 'trailer has no ID' });
      const which = isLinearized(f) ? trailers[0] : trailers[trailers.length - 1];
      return condition(trailerId(f, which) !== null, { context: isLinearized(f) ? 'the first page trailer has no ID' : 'the last trailer has no ID' });
    },
  },
  {
    id: 'pdfa.trailer.linearized-id',
    clauses: { 1: '6.1.3' },
    description: 'In a linearized file, the ID in the first page trailer and in the last trailer shall be identical.',
    test: (f) => {
      const trailers = rawTrailers(f);
      if (!isLinearized(f) || trailers.length < 2) return condition(true);
      const first = trailerId(f, trailers[0]);
      const last = trailerId(f, trailers[trailers.length - 1]);
      return condition(last === null || first === last, { context: 'the first page and last trailers carry different IDs' });
    },
  },
  {
    id: 'pdfa.trailer.encrypt',
    clauses: same('6.1.3'),
    description: 'The Encrypt key shall not be present in the trailer dictionary: the file shall not be encrypted.',
    test: (f) => condition(!f.facts.encrypted, { context: 'the file is encrypted' }),
  },
  {
    id: 'pdfa.trailer.after-eof',
    clauses: same('6.1.3'),
    description: 'No data shall follow the last end-of-file marker (%%EOF) except a single optional end-of-line marker.',
    test: (f) => {
      const n = syntaxScan(f).postEofBytes;
      return condition(n === 0, { context: n < 0 ? 'the file has no %%EOF marker' : `${n} bytes follow the last %%EOF` });
    },
  },
  {
    id: 'pdfa.trailer.info',
    clauses: { 4: '6.1.3' },
    description: 'The trailer shall not contain the Info key unless the document catalog has a PieceInfo entry.',
    test: (f) => condition(has(f.catalog, 'PieceInfo') || !f.context.trailerInfo.Info, { context: 'the trailer has an Info entry' }),
  },
  {
    id: 'pdfa.trailer.info-moddate',
    clauses: { 4: '6.1.3' },
    description: 'A document information dictionary, if present, shall contain only the ModDate entry.',
    test: (f) => {
      const info = f.context.trailerInfo.Info;
      const dict = info instanceof PDFRef ? f.context.lookup(info) : info;
      if (!(dict instanceof PDFDict)) return condition(true);
      const keys = dict.keys().map((k) => k.decodeText());
      return condition(keys.length === 1 && keys[0] === 'ModDate', { context: `Info has ${keys.join(', ') || 'no entries'}` });
    },
  },
  {
    id: 'pdfa.xref.keyword-eol',
    clauses: same('6.1.4'),
    description: 'The xref keyword and the cross-reference subsection header shall be separated by a single end-of-line marker.',
    test: (f) => eachOf(syntaxScan(f).xrefs, (x) => x.keywordEolOk, (x) => ({ context: `xref at byte ${x.offset}` })),
  },
  {
    id: 'pdfa.xref.subsection-spacing',
    clauses: { 1: '6.1.4' },
    description: 'In a cross-reference subsection header the starting object number and the count shall be separated by a single space.',
    test: (f) => eachOf(syntaxScan(f).xrefs, (x) => x.subsectionSpacingOk, (x) => ({ context: `xref at byte ${x.offset}` })),
  },
  {
    id: 'pdfa.xref.no-streams',
    clauses: { 1: '6.1.4' },
    description: 'Cross-reference streams shall not be used (PDF/A-1 files use cross-reference tables).',
    test: (f) => {
      const xrefStreams = f.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Type')) === PDFName.of('XRef'));
      return eachOf(xrefStreams, () => false, ([ref]) => ({ objectNumber: ref.objectNumber, context: 'cross-reference stream' }));
    },
  },
  {
    id: 'pdfa.string.hex-even',
    clauses: { 1: '6.1.6', 2: '6.1.6', 3: '6.1.6', 4: '6.1.5' },
    description: 'Hexadecimal strings shall contain an even number of non-white-space characters.',
    test: (f) => {
      const hits = syntaxScan(f).values.oddHexStrings.filter((h) => inDocument(f, h.objectNumber)).map((h) => hitExample(h, 'hex string'));
      for (const c of contentValues(f)) for (const h of c.findings.oddHexStrings) hits.push({ ...hitExample(h, 'hex string'), ...(c.page !== undefined ? { page: c.page } : {}) });
      return { checked: 1, failures: hits };
    },
  },
  {
    id: 'pdfa.string.hex-digits',
    clauses: { 1: '6.1.6', 2: '6.1.6', 3: '6.1.6', 4: '6.1.5' },
    description: 'Hexadecimal strings shall contain only the digits 0–9, A–F and a–f (and white space).',
    test: (f) => {
      const hits = syntaxScan(f).values.nonHexStrings.filter((h) => inDocument(f, h.objectNumber)).map((h) => hitExample(h, 'hex string'));
      for (const c of contentValues(f)) for (const h of c.findings.nonHexStrings) hits.push({ ...hitExample(h, 'hex string'), ...(c.page !== undefined ? { page: c.page } : {}) });
      return { checked: 1, failures: hits };
    },
  },
  {
    id: 'pdfa.stream.length',
    clauses: { 1: '6.1.7', 2: '6.1.7.1', 3: '6.1.7.1', 4: '6.1.6.1' },
    description: 'The Length of a stream shall equal the number of bytes between the end-of-line after the stream keyword and the end-of-line before endstream.',
    test: (f) =>
      eachOf(
        reachableStreams(f),
        (s) => declaredLength(f, s) === s.realLength,
        (s) => ({ objectNumber: s.objectNumber, context: `Length ${declaredLength(f, s) ?? 'missing'}, ${s.realLength} bytes of data` }),
      ),
  },
  {
    id: 'pdfa.stream.keyword-eol',
    clauses: { 1: '6.1.7', 2: '6.1.7.1', 3: '6.1.7.1' },
    description: 'The stream keyword shall be followed by CR LF or a single LF, and endstream shall be preceded by an end-of-line marker.',
    test: (f) =>
      eachOf(
        reachableStreams(f),
        (s) => s.keywordEolOk && s.endstreamEolOk,
        (s) => ({ objectNumber: s.objectNumber, context: s.keywordEolOk ? 'endstream is not preceded by an end-of-line marker' : 'stream is not followed by CR LF or LF' }),
      ),
  },
  {
    id: 'pdfa.stream.external',
    clauses: { 1: '6.1.7', 2: '6.1.7.1', 3: '6.1.7.1', 4: '6.1.6.1' },
    description: 'A stream dictionary shall not contain the F, FFilter or FDecodeParms keys (stream data in external files).',
    test: (f) => {
      const streams = streamDicts(f);
      return eachOf(
        streams,
        ([, d]) => !has(d, 'F') && !has(d, 'FFilter') && !has(d, 'FDecodeParms'),
        ([n, d]) => ({ objectNumber: n, context: `stream dictionary has ${['F', 'FFilter', 'FDecodeParms'].filter((k) => has(d, k)).join(', ')}` }),
      );
    },
  },
  {
    id: 'pdfa.object.header-spacing',
    clauses: { 1: '6.1.8', 2: '6.1.9', 3: '6.1.9', 4: '6.1.8' },
    description: 'Object number, generation number and obj shall be separated by single white-space characters; the object number and endobj shall each be preceded, and obj and endobj followed, by an end-of-line marker.',
    test: (f) => eachOf(syntaxScan(f).objects.filter((o) => inDocument(f, o.objectNumber)), (o) => o.spacingProblem === null, (o) => ({ objectNumber: o.objectNumber, context: o.spacingProblem ?? '' })),
  },
];


/** Every stream's dictionary by object number. */
export const streamDicts = fact('file-structure/stream-dicts', (m): [number, PDFDict][] => {
  const out: [number, PDFDict][] = [];
  const reachable = reachableObjects(m);
  for (const [ref, o] of m.context.enumerateIndirectObjects()) if (o instanceof PDFStream && reachable.has(ref.objectNumber)) out.push([ref.objectNumber, o.dict]);
  return out;
});

function declaredLength(m: ValidationModel, s: { declaredLength: number | null; lengthRef: { objectNumber: number; generation: number } | null }): number | null {
  if (s.declaredLength !== null) return s.declaredLength;
  if (!s.lengthRef) return null;
  const v = m.context.lookup(PDFRef.of(s.lengthRef.objectNumber, s.lengthRef.generation));
  return v instanceof PDFNumber ? v.asNumber() : null;
}
