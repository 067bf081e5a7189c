import { describe, expect, it } from 'vitest';
import { compareShape } from '../../support/json-shape';

describe('compareShape: ours has every field path of the reference, with its JSON type or null', () => {
  it('accepts a superset, and null on either side', () => {
    expect(compareShape({ a: 1, b: { c: 'x' }, d: null }, { a: 2, b: { c: 'y', extra: true }, d: [1], e: 'ours' })).toEqual({ problems: [], unproven: [] });
    expect(compareShape({ a: 1 }, { a: null }).problems).toEqual([]);
  });

  it('names a missing field and a field of another type', () => {
    expect(compareShape({ a: 1, b: { c: 'x' } }, { a: '1', b: {} }).problems).toEqual(['a: string, the reference has number', 'b.c: missing (the reference has string)']);
  });

  it('fails when a field is added to the reference', () => {
    const ours = { job: { id: 'j', tasks: [{ id: 't' }] } };
    expect(compareShape({ job: { id: 'x', tasks: [{ id: 'y' }] } }, ours).problems).toEqual([]);
    expect(compareShape({ job: { id: 'x', tasks: [{ id: 'y', wfKind: null }] } }, ours).problems).toEqual(['job.tasks[].wfKind: missing (the reference has null)']);
  });

  it('holds every element of ours to the fields all reference elements share', () => {
    expect(compareShape({ list: [{ a: 1 }, { a: 2, c: 3 }] }, { list: [{ a: 1, c: 3 }, { b: 2 }] }).problems).toEqual(['list[].a: missing (the reference has number)']);
  });

  it('matches each reference element with some element of ours, as mixed arrays need, and names what the closest one lacks', () => {
    const reference = { findings: [{ id: 'a', font: 'Helvetica' }, { id: 'b', measured_dpi: 72 }] };
    expect(compareShape(reference, { findings: [{ id: 'x', measured_dpi: 96 }, { id: 'y', font: 'Times' }] }).problems).toEqual([]);
    expect(compareShape(reference, { findings: [{ id: 'x', font: 'Times' }] }).problems).toEqual(['findings[].measured_dpi: missing (the reference has number)']);
  });

  it('reports reference paths under an array that is empty in ours as unproven, not as passing', () => {
    expect(compareShape({ list: [{ a: 1, b: { c: 2 } }] }, { list: [] })).toEqual({ problems: [], unproven: ['list[]', 'list[].a', 'list[].b', 'list[].b.c'] });
  });

  it('checks enum spellings where told, and skips the deliberate differences', () => {
    const enums = { status: () => ['pending', 'done'], role: (v: string) => (v === 'output' ? ['fixed'] : [v]) };
    expect(compareShape({ status: 'done', role: 'output' }, { status: 'Done', role: 'fixed' }, { enums }).problems).toEqual([
      'status: "Done" where the reference spells "done" (allowed: pending, done)',
    ]);
    expect(compareShape({ type: 'x', sig: { a: 1 } }, { type: 'x' }, { skip: ['sig'] }).problems).toEqual([]);
    expect(compareShape({ f: [{ a: 1, font: 'x' }] }, { f: [{ a: 2 }] }, { optional: ['f[].font'] }).problems).toEqual([]);
  });
});
