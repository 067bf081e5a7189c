import { describe, expect, it } from 'vitest';
import { operations, reusedOperations } from '../../../../lambdas/engine/core/content-lexer';

const ops = (text: string | Uint8Array) => [...operations(typeof text === 'string' ? Buffer.from(text, 'latin1') : text)];

describe('content stream lexer', () => {
  it('reads operators with their operands', () => {
    expect(ops('1 0 0 1 72.5 -3 cm /F1 12 Tf')).toEqual([
      { op: 'cm', operands: [1, 0, 0, 1, 72.5, -3] },
      { op: 'Tf', operands: [{ name: 'F1' }, 12] },
    ]);
  });

  it('in reuse mode, hands out the same operations one at a time in one object and one operands array', () => {
    const text = Buffer.from('1 0 0 rg 0 0 10 10 re f BI /W 1 /H 1 /CS /G /BPC 8 ID x EI [(a) 2 (b)] TJ Q', 'latin1');
    const copied: { op: string; operands: unknown[] }[] = [];
    const seen = new Set<object>();
    for (const op of reusedOperations(text)) {
      seen.add(op);
      seen.add(op.operands);
      copied.push({ op: op.op, operands: [...op.operands] });
    }
    expect(copied).toEqual([...operations(text)]);
    // One Operation object and one operands array served every step.
    expect(seen.size).toBe(2);
  });

  it('reads numbers as Number() does, leading-number fallback and keyword literals included', () => {
    const words = ['-0', '+7', '.5', '-.25', '1.', '0.1', '007', '123456789012345', '1234567890123456.75', '0.30000000000000004', '1e3', '--5', '1.2.3', '.', '-'];
    const [op] = ops(`${words.join(' ')} true false null n`);
    const expected = words.map((w) => (Number.isFinite(Number(w)) ? Number(w) : Number.isFinite(Number.parseFloat(w)) ? Number.parseFloat(w) : 0));
    expect(op!.operands).toEqual([...expected, true, false, null]);
    expect(Object.is(op!.operands[0], -0)).toBe(true);
  });

  it('reads short and long names alike, # escapes and the empty name included, however often they repeat', () => {
    const [a, b] = ops('/F1 /A#41 / /LongName#20X Tf /F1 /A#41 / /LongName#20X Tf');
    expect(a!.operands).toEqual([{ name: 'F1' }, { name: 'AA' }, { name: '' }, { name: 'LongName X' }]);
    expect(b!.operands).toEqual(a!.operands);
  });

  it('decodes literal strings with escapes and nested parentheses', () => {
    const [tj] = ops('(a\\(b\\) (c) \\101\\n) Tj');
    expect(Buffer.from((tj!.operands[0] as { bytes: Uint8Array }).bytes).toString('latin1')).toBe('a(b) (c) A\n');
  });

  it('decodes hex strings, names with # escapes, arrays and dictionaries', () => {
    const [op] = ops('<48 656C6C6F> /A#20B [1 (x) /N] << /K 1 /L [2] >> BDC');
    expect(op!.op).toBe('BDC');
    expect(Buffer.from((op!.operands[0] as { bytes: Uint8Array }).bytes).toString()).toBe('Hello');
    expect(op!.operands[1]).toEqual({ name: 'A B' });
    expect(op!.operands[2]).toEqual([1, { bytes: Uint8Array.from([0x78]) }, { name: 'N' }]);
    expect(op!.operands[3]).toEqual({ dict: { K: 1, L: [2] } });
  });

  it('skips comments', () => {
    expect(ops('% a comment with q and Q\n0 g')).toEqual([{ op: 'g', operands: [0] }]);
  });

  it('turns an inline image into one BI operation and skips its binary data', () => {
    const data = Buffer.from([0x45, 0x49, 0x00, 0xff, 0x20, 0x51]); // "EI" inside the data must not end it
    const stream = Buffer.concat([Buffer.from('q BI /W 2 /H 1 /CS /RGB /BPC 8 ID '), data, Buffer.from(' EI Q 1 g')]);
    expect(ops(stream).map((o) => o.op)).toEqual(['q', 'BI', 'Q', 'g']);
    expect(ops(stream)[1]!.operands[0]).toEqual({ dict: { W: 2, H: 1, CS: { name: 'RGB' }, BPC: 8 } });
  });

  it('finds the end of filtered inline image data by EI followed by text, not binary', () => {
    const data = Buffer.from([0x01, 0x20, 0x45, 0x49, 0x20, 0x02, 0x03, 0xfe, 0x20, 0x10]);
    const stream = Buffer.concat([Buffer.from('BI /W 8 /H 8 /CS /G /BPC 8 /F /Fl ID '), data, Buffer.from(' EI 0 g')]);
    expect(ops(stream).map((o) => o.op)).toEqual(['BI', 'g']);
  });

  it('ends leniently at truncated strings, arrays and dictionaries', () => {
    expect(() => ops('[1 2 (unterminated')).not.toThrow();
    expect(() => ops('<< /A [1 2')).not.toThrow();
    expect(ops(') ] >> } 0 g')).toEqual([{ op: 'g', operands: [0] }]);
  });

  it('survives binary junk without hanging', () => {
    const junk = Buffer.alloc(200_000);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 2654435761) >>> 24;
    expect(() => ops(junk)).not.toThrow();
  });
});
