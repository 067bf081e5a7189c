import { describe, expect, it } from 'vitest';
import { FIXES, fixApplicationOrder, orderFixes } from '../../../../lambdas/engine/fix-catalogue/index';
import { applicationOrder, inApplicationOrder } from '../../../../lambdas/engine/fix-catalogue/fix-order';
import { fix } from '../../../../lambdas/engine/fix-catalogue/types';

const entry = (id: string, runsAfter?: string[]) => fix({ id, name: id, description: id, resolves: [], appearance: 'none', ...(runsAfter ? { runsAfter } : {}) });

describe('the order fixes run in', () => {
  it('follows what each fix declares it runs after, whatever order a request names them in', () => {
    expect(orderFixes(['bleed.mirror', 'boxes.normalize', 'pages.unrotate'])).toEqual(['pages.unrotate', 'boxes.normalize', 'bleed.mirror']);
    expect(orderFixes(['pages.pad-to-multiple', 'bleed.mirror', 'pages.scale-to-trim'])).toEqual(['pages.scale-to-trim', 'bleed.mirror', 'pages.pad-to-multiple']);
    expect(orderFixes(['overprint.black-text', 'color.richblack-small-text-to-k', 'color.spot-to-process'])).toEqual([
      'color.spot-to-process',
      'color.richblack-small-text-to-k',
      'overprint.black-text',
    ]);
    expect(orderFixes(['pdfx.prepare', 'metadata.sync', 'boxes.normalize'])).toEqual(['boxes.normalize', 'metadata.sync', 'pdfx.prepare']);
  });

  it('keeps every declaration of the catalogue: each fix runs after everything it names', () => {
    const order = fixApplicationOrder();
    expect([...order].sort()).toEqual(FIXES.map((f) => f.id).sort());
    for (const f of FIXES) for (const before of f.runsAfter ?? []) expect(order.indexOf(before), `${f.id} after ${before}`).toBeLessThan(order.indexOf(f.id));
  });

  it('runs each fix once and an unknown id last', () => {
    expect(orderFixes(['no.such.fix', 'actions.remove', 'actions.remove'])).toEqual(['actions.remove', 'no.such.fix']);
    expect(inApplicationOrder(['b', 'x', 'a'], ['a', 'b'])).toEqual(['a', 'b', 'x']);
  });

  it('keeps the catalogue order where nothing is declared', () => {
    expect(applicationOrder([entry('a'), entry('b', ['c']), entry('c')])).toEqual(['a', 'c', 'b']);
    expect(applicationOrder([entry('a'), entry('b'), entry('c')])).toEqual(['a', 'b', 'c']);
  });

  it('refuses a catalogue whose declarations name an unknown fix or wait for each other', () => {
    expect(() => applicationOrder([entry('a', ['nope'])])).toThrow('a runs after "nope", which is not a fix');
    expect(() => applicationOrder([entry('a', ['b']), entry('b', ['a']), entry('c')])).toThrow('the fixes a, b wait for each other');
  });
});
