/**
 * ISO 19005-1, 6.7.3: each document information dictionary entry PDF/A-1
 * maps to XMP (Title, Author, Subject, Keywords, Creator, Producer,
 * CreationDate, ModDate) shall, when present, be equivalent to its XMP
 * counterpart. Dates are compared as instants, not as text.
 */
import { PDFDict, PDFName, PDFNull } from '@cantoo/pdf-lib';
import { getText, resolve } from '../../core/pdf-objects';
import { fact } from '../fact';
import type { Example, Rule } from '../rule';
import { mainPacket } from './packet';
import { NS } from '../../core/xmp/schemas';
import type { XmpNode, XmpProperty } from '../../core/xmp/xmp-model';

interface Pair {
  entry: string;
  xmp: string;
  /** The XMP value to compare with, or null when the packet lacks it. */
  read(props: XmpProperty[]): string | null;
  date?: boolean;
}

const find = (props: XmpProperty[], ns: string, name: string): XmpNode | undefined => props.find((p) => p.ns === ns && p.name === name)?.node;
const simple = (n: XmpNode | undefined): string | null => (n?.kind === 'simple' ? n.value : null);
const xDefault = (n: XmpNode | undefined): string | null => {
  if (n?.kind !== 'array') return null;
  const item = n.items.find((i) => i.lang?.toLowerCase() === 'x-default');
  return simple(item);
};

const PAIRS: Pair[] = [
  { entry: 'Title', xmp: 'dc:title', read: (p) => xDefault(find(p, NS.dc, 'title')) },
  {
    entry: 'Author',
    xmp: 'dc:creator',
    // The Author is the single entry of dc:creator (a Seq with more entries cannot be equivalent).
    read: (p) => {
      const n = find(p, NS.dc, 'creator');
      return n?.kind === 'array' && n.items.length === 1 ? simple(n.items[0]) : null;
    },
  },
  { entry: 'Subject', xmp: 'dc:description', read: (p) => xDefault(find(p, NS.dc, 'description')) },
  { entry: 'Keywords', xmp: 'pdf:Keywords', read: (p) => simple(find(p, NS.pdf, 'Keywords')) },
  { entry: 'Creator', xmp: 'xmp:CreatorTool', read: (p) => simple(find(p, NS.xmp, 'CreatorTool')) },
  { entry: 'Producer', xmp: 'pdf:Producer', read: (p) => simple(find(p, NS.pdf, 'Producer')) },
  { entry: 'CreationDate', xmp: 'xmp:CreateDate', read: (p) => simple(find(p, NS.xmp, 'CreateDate')), date: true },
  { entry: 'ModDate', xmp: 'xmp:ModifyDate', read: (p) => simple(find(p, NS.xmp, 'ModifyDate')), date: true },
];

const infoDict = fact('metadata-info-dict', (m) => {
  const info = resolve(m.context, m.context.trailerInfo.Info);
  return info instanceof PDFDict ? info : undefined;
});

/** PDF date `D:YYYYMMDDHHmmSSOHH'mm'` → epoch ms (null when unreadable). */
export function pdfDateInstant(s: string): number | null {
  const r = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?\s*$/.exec(s.trim());
  if (!r) return null;
  const [y, mo = '01', d = '01', h = '00', mi = '00', se = '00', sign, oh = '00', om = '00'] = r.slice(1);
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se));
  const offset = sign === '+' || sign === '-' ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60000 : 0;
  return base - offset;
}

/** XMP date (ISO 8601 subset) → epoch ms (null when unreadable). */
export function xmpDateInstant(s: string): number | null {
  const r = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/.exec(s.trim());
  if (!r) return null;
  const [y, mo = '01', d = '01', h = '00', mi = '00', se = '00', frac = '', tz] = r.slice(1);
  const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(se), Math.floor(Number(`0.${frac || '0'}`) * 1000));
  if (!tz || tz === 'Z') return base;
  const sign = tz[0] === '-' ? -1 : 1;
  return base - sign * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6))) * 60000;
}

export const INFO_RULES: readonly Rule[] = [
  {
    id: 'pdfa.metadata.info-consistency',
    clauses: { 1: '6.7.3' },
    description:
      'Each document information dictionary entry (Title, Author, Subject, Keywords, Creator, Producer, CreationDate, ModDate) that is present shall be equivalent to its XMP counterpart (dc:title, dc:creator, dc:description, pdf:Keywords, xmp:CreatorTool, pdf:Producer, xmp:CreateDate, xmp:ModifyDate).',
    test: (m) => {
      const info = infoDict(m);
      const main = mainPacket(m);
      if (!info || !main) return { checked: 0, failures: [] };
      const failures: Example[] = [];
      let checked = 0;
      for (const pair of PAIRS) {
        // An entry whose value is null is absent (6-1-5-t02-pass-d).
        const raw = info.lookup(PDFName.of(pair.entry));
        if (raw === undefined || raw === PDFNull) continue;
        checked++;
        const value = getText(info, pair.entry);
        if (value === undefined) {
          // A stream or number where a text string belongs cannot be equivalent to anything (6-1-5-t01-fail-j).
          failures.push({ objectNumber: m.objectNumbers.of(info), context: `Info ${pair.entry} is not a text string` });
          continue;
        }
        const xmp = pair.read(main.packet.properties);
        let same: boolean;
        if (xmp === null) same = false;
        else if (pair.date) {
          const a = pdfDateInstant(value);
          const b = xmpDateInstant(xmp);
          same = a !== null && b !== null && a === b;
        } else same = xmp === value;
        if (!same) failures.push({ objectNumber: m.objectNumbers.of(info), context: xmp === null ? `Info ${pair.entry} is "${value}" but XMP has no ${pair.xmp}` : `Info ${pair.entry} is "${value}" but ${pair.xmp} is "${xmp}"` });
      }
      return { checked, failures };
    },
  },
];
