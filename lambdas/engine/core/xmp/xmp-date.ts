/**
 * The lexical form of an XMP Date as PDF/A validators read it. XMP part 1
 * (8.2.1.2) describes the ISO 8601 subset YYYY[-MM[-DD[Thh:mm[:ss[.s]]TZD]]],
 * but the reference implementation veraPDF judges a Date by whether the XMP
 * toolkit's ISO 8601 reader (Adobe XMPCore's ISO8601Converter, which veraPDF's
 * DateTypeValidator calls) accepts it, and that reader is far more forgiving:
 *
 * - an empty value is an unset date, not a malformed one;
 * - each component is a run of digits of any length, and out-of-range numbers
 *   are clamped rather than refused (month 13 reads as 12, hour 24 as 23, day 00
 *   as 0), so only the separators matter;
 * - the year may carry a leading minus sign;
 * - the time may stop after the hour or the minutes;
 * - a time zone offset may omit its minutes ("+01") or its colon ("+0100",
 *   read as an hour offset clamped to 23).
 *
 * We follow that reader: a producer's "2008-03-14T10:22+0100" is valid for
 * veraPDF, and calling it a 6.6.2.3.1 violation would invent one. What stays
 * invalid is what the reader refuses: letters, spaces or other separators, a
 * date part ending in "-" or "T", a PDF-style offset such as "+01'00'".
 */

// year [-month [-day [T hour [:minute [:second [.fraction]]] [zone]]]]
const DATE = /^-?\d+(?:-\d+(?:-\d+(?:T\d+(?::\d+(?::\d+(?:\.\d+)?)?)?(?:Z|[+-]\d+(?::\d+)?)?)?)?)?$/;

/** True when an XMP Date value has a form the XMP toolkit's ISO 8601 reader accepts. */
export function isXmpDate(value: string): boolean {
  return value === '' || DATE.test(value);
}
