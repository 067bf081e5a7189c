/**
 * Dates in the two forms a PDF keeps them: PDF date strings in the Info
 * dictionary (ISO 32000-1 7.9.4, `D:YYYYMMDDHHmmSSOHH'mm'`) and XMP dates
 * (ISO 8601 subset, `YYYY-MM-DDThh:mm:ss±hh:mm`). A date copied from one
 * place to the other keeps its precision and its time-zone offset, so the
 * instant is the same in both (that is what PDF/A-1 6.7.3 compares).
 */

export interface DateParts {
  year: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  /** Minutes east of UTC; undefined when the date states no zone. */
  offset?: number;
}

const PDF_DATE = /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?\s*$/;
const XMP_DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?)?)?$/;

export function parsePdfDate(s: string): DateParts | null {
  const r = PDF_DATE.exec(s.trim());
  if (!r) return null;
  const n = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const parts: DateParts = { year: Number(r[1]), month: n(r[2]), day: n(r[3]), hour: n(r[4]), minute: n(r[5]), second: n(r[6]) };
  if (r[7]) parts.offset = r[7] === '+' || r[7] === '-' ? (r[7] === '-' ? -1 : 1) * (Number(r[8] ?? 0) * 60 + Number(r[9] ?? 0)) : 0;
  return valid(parts) ? parts : null;
}

export function parseXmpDate(s: string): DateParts | null {
  const r = XMP_DATE.exec(s.trim());
  if (!r) return null;
  const n = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  const parts: DateParts = { year: Number(r[1]), month: n(r[2]), day: n(r[3]), hour: n(r[4]), minute: n(r[5]), second: n(r[6]) };
  const tz = r[7];
  if (tz) parts.offset = tz === 'Z' ? 0 : (tz[0] === '-' ? -1 : 1) * (Number(tz.slice(1, 3)) * 60 + Number(tz.slice(4, 6)));
  return valid(parts) ? parts : null;
}

/** Field ranges (a month 13 or an hour 25 is not a date, whatever the pattern allows). */
function valid(p: DateParts): boolean {
  const within = (v: number | undefined, lo: number, hi: number) => v === undefined || (v >= lo && v <= hi);
  return within(p.month, 1, 12) && within(p.day, 1, 31) && within(p.hour, 0, 23) && within(p.minute, 0, 59) && within(p.second, 0, 59) && within(p.offset, -23 * 60 - 59, 23 * 60 + 59);
}

const pad = (v: number, n = 2) => String(Math.abs(v)).padStart(n, '0');

export function formatPdfDate(p: DateParts): string {
  let s = `D:${pad(p.year, 4)}`;
  for (const v of [p.month, p.day, p.hour, p.minute, p.second]) {
    if (v === undefined) break;
    s += pad(v);
  }
  if (p.offset !== undefined) s += p.offset === 0 ? 'Z' : `${p.offset < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(p.offset) / 60))}'${pad(Math.abs(p.offset) % 60)}'`;
  return s;
}

export function formatXmpDate(given: DateParts): string {
  // A zone needs a time of day, and a time of day a full date: fill what the zone implies.
  const p = given.offset !== undefined ? { ...given, month: given.month ?? 1, day: given.day ?? 1 } : given;
  let s = pad(p.year, 4);
  if (p.month === undefined) return s;
  s += `-${pad(p.month)}`;
  if (p.day === undefined) return s;
  s += `-${pad(p.day)}`;
  if (p.hour === undefined && p.offset === undefined) return s;
  s += `T${pad(p.hour ?? 0)}:${pad(p.minute ?? 0)}`;
  if (p.second !== undefined) s += `:${pad(p.second)}`;
  if (p.offset !== undefined) s += p.offset === 0 ? 'Z' : `${p.offset < 0 ? '-' : '+'}${pad(Math.trunc(Math.abs(p.offset) / 60))}:${pad(Math.abs(p.offset) % 60)}`;
  return s;
}

/** A moment as UTC parts to the second (how the fixes stamp "now"). */
export function utcParts(d: Date): DateParts {
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour: d.getUTCHours(), minute: d.getUTCMinutes(), second: d.getUTCSeconds(), offset: 0 };
}

/** The instant in epoch milliseconds (a date without a zone reads as UTC, as the validator reads it). */
export function instantOf(p: DateParts): number {
  return Date.UTC(p.year, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0) - (p.offset ?? 0) * 60000;
}
