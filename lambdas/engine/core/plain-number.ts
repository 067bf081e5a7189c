/**
 * Numbers read straight from PDF bytes, for the two readers that meet the most
 * of them: the content stream lexer and the object parser's token readers.
 */

/** Powers of ten up to 10^22, the largest a double holds exactly. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);
/** Digits kept in the integer accumulator: below 2^53, so it stays exact. */
const MAX_DIGITS = 15;

/**
 * The value of a plain decimal (optional sign, digits, at most one point, at
 * least one digit) of up to 15 digits, read straight from the bytes; undefined
 * for anything else, which then goes through Number(). The same double as
 * Number(): the digits form an exact integer and 10^k is exact, so the one
 * correctly rounded division gives the correctly rounded decimal.
 */
export function plainNumber(b: Uint8Array, start: number, end: number): number | undefined {
  let i = start;
  let negative = false;
  if (b[i] === 0x2d || b[i] === 0x2b) negative = b[i++] === 0x2d;
  let mantissa = 0;
  let digits = 0;
  let fraction = -1;
  for (; i < end; i++) {
    const c = b[i]!;
    if (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      if (fraction >= 0) fraction++;
    } else if (c === 0x2e && fraction < 0) fraction = 0;
    else return undefined;
  }
  if (digits === 0 || digits > MAX_DIGITS) return undefined;
  const value = fraction > 0 ? mantissa / POW10[fraction]! : mantissa;
  return negative ? -value : value;
}
