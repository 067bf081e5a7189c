/**
 * Role and tree rules (lambdas/engine/validate/structure/role-rules.ts): the P
 * entry of every structure element (PDF/UA-1 7.1, PDF/UA-2 8.2.1).
 */
import { describe, expect, it } from 'vitest';
import { el, failureOf, tagged } from './tagged-tree';

describe('the parent entry of structure elements', () => {
  it('requires a P entry in every structure element (UA-1 7.1, UA-2 8.2.1)', async () => {
    const orphan = [el('Sect', [el('P'), el('P', [], { noParent: true })])];
    expect(await failureOf('pdfua.structure.parent-entry', 1, await tagged(1, orphan))).toMatchObject({
      clause: '7.1',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'P: no P (parent) entry' }],
    });
    expect(await failureOf('pdfua.structure.parent-entry', 2, await tagged(2, orphan))).toMatchObject({ clause: '8.2.1', occurrences: 1 });
    expect(await failureOf('pdfua.structure.parent-entry', 1, await tagged(1, [el('Sect', [el('P'), el('P')])]))).toBeUndefined();
  });
});
