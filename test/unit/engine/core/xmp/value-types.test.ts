import { describe, expect, it } from 'vitest';
import { isKnownType, parseType, typeProblem, undescribedStructure, type TypeContext } from '../../../../../lambdas/engine/core/xmp/value-types';
import { isXmpDate } from '../../../../../lambdas/engine/core/xmp/xmp-date';
import { NS } from '../../../../../lambdas/engine/core/xmp/schemas';
import type { XmpNode } from '../../../../../lambdas/engine/core/xmp/xmp-model';

const ctx2005: TypeContext = { edition: '2005', custom: new Map() };
const ctx2004: TypeContext = { edition: '2004', custom: new Map() };
const simple = (value: string, lang?: string): XmpNode => ({ kind: 'simple', value, uri: false, lang, qualifiers: [] });
const struct = (ns: string, fields: Record<string, XmpNode>): XmpNode => ({ kind: 'struct', fields: Object.entries(fields).map(([name, node]) => ({ ns, prefix: 'p', name, node })) });
const alt = (...items: XmpNode[]): XmpNode => ({ kind: 'array', form: 'Alt', items });

describe('XMP Date: what the XMP toolkit’s ISO 8601 reader accepts (veraPDF’s DateTypeValidator)', () => {
  it.each([
    ['2016-02-01T13:19:21+01:00', 'the XMP form'],
    ['', 'an empty value (an unset date)'],
    ['2008-03-14T10:22+0100', 'an offset without its colon'],
    ['2008-03-14T10:22:11+01', 'an offset without minutes'],
    ['2008-3-4', 'one-digit month and day'],
    ['2008-03-14T10Z', 'a time of hours only'],
    ['2008-13-40T24:00:00Z', 'numbers out of range (the reader clamps them)'],
    ['-0044', 'a negative year'],
    ['2008-03-14T10:22:11.123456789Z', 'fractional seconds'],
  ])('accepts "%s" (%s)', (value) => {
    expect(isXmpDate(value)).toBe(true);
    expect(typeProblem(simple(value), 'Date', ctx2005)).toBeNull();
  });
  it.each([
    ["2008-03-14T10:22:11+01'00'", 'a PDF-style offset'],
    ['2008/03/14', 'slashes'],
    ['2008-03-14T', 'a T without a time'],
    ['2008-03-14 10:22', 'a space before the time'],
    ['March 2008', 'words'],
    ['2008-03-14T10:22:11.Z', 'a fraction without digits'],
  ])('refuses "%s" (%s)', (value) => {
    expect(isXmpDate(value)).toBe(false);
    expect(typeProblem(simple(value), 'Date', ctx2005)).toMatch(/is not a valid Date/);
  });
});

describe('Lang Alt: an rdf:Alt the XMP toolkit marks as alt-text (veraPDF’s LangAltValidator)', () => {
  it('accepts an Alt in which one item has xml:lang, and an empty Alt', () => {
    expect(typeProblem(alt(simple('Title', 'x-default'), simple('Titel')), 'Lang Alt', ctx2005)).toBeNull();
    expect(typeProblem(alt(), 'Lang Alt', ctx2005)).toBeNull();
  });
  it('refuses an Alt none of whose items has xml:lang, and any other form', () => {
    expect(typeProblem(alt(simple('Title')), 'Lang Alt', ctx2005)).toMatch(/none of whose items has xml:lang/);
    expect(typeProblem(simple('Title', 'x-default'), 'Lang Alt', ctx2005)).toMatch(/not a Lang Alt/);
  });
});

describe('simple types veraPDF checks as text or by pattern', () => {
  it.each<[string, string, boolean, TypeContext]>([
    ['Rational', '72', true, ctx2005],
    ['Rational', '2.8', true, ctx2005],
    ['MIMEType', 'application/pdf', true, ctx2005],
    ['MIMEType', 'pdf', false, ctx2005],
    ['GPSCoordinate', '154,59.5E', true, ctx2005],
    ['GPSCoordinate', '54,59N', false, ctx2005],
    ['GPSCoordinate', '54,59,38N', true, ctx2004],
    ['GPSCoordinate', '154,59.5E', false, ctx2004],
  ])('%s "%s" valid: %s', (type, value, ok, ctx) => {
    expect(typeProblem(simple(value), type, ctx) === null).toBe(ok);
  });
  it('still wants a simple value where the type is simple', () => {
    expect(typeProblem(struct(NS.exif, {}), 'Rational', ctx2005)).toMatch(/not a simple Rational/);
  });
  it('lets the Marker fields startTime and duration take any value', () => {
    const marker = struct(NS.xmpDM, { startTime: struct(NS.xmpDM, { value: simple('1') }), name: simple('m') });
    expect(typeProblem(marker, 'Marker', ctx2005)).toBeNull();
    expect(typeProblem(struct(NS.xmpDM, { name: struct(NS.xmpDM, {}) }), 'Marker', ctx2005)).toMatch(/xmpDM|p:name/);
  });
});

describe('value type names, read as veraPDF simplifies them', () => {
  it('drops choices, reads a bare array form as an array of Text and matches names without regard to case', () => {
    expect(parseType('Bag')).toEqual({ form: 'bag', item: 'Text' });
    expect(parseType('seq Closed Choice of Integer')).toEqual({ form: 'seq', item: 'Integer' });
    expect(parseType('Open Choice')).toEqual({ form: null, item: 'Text' });
    expect(isKnownType('resourceRef', ctx2005)).toBe(true);
    expect(isKnownType('Any', ctx2005)).toBe(false);
    expect(isKnownType('Gadget', ctx2005)).toBe(false);
    expect(typeProblem(struct(NS.stDim, { w: simple('ten') }), 'dimensions', ctx2005)).toMatch(/w/);
  });
});

describe('extension value types described without fields', () => {
  const ctx: TypeContext = { edition: '2005', custom: new Map([['Serial', { ns: '', fields: {} }]]) };
  it('are Text: a simple value passes', () => {
    expect(typeProblem(simple('A-17'), 'Serial', ctx)).toBeNull();
    expect(undescribedStructure(simple('A-17'), 'Serial', ctx)).toBeNull();
  });
  it('do not describe a structure: a structure of that type fails, and is named as undescribed', () => {
    const value = struct('urn:s/', { part: simple('A') });
    expect(typeProblem(value, 'Serial', ctx)).toMatch(/describes no fields/);
    expect(undescribedStructure(value, 'Serial', ctx)).toBe('Serial');
    expect(undescribedStructure({ kind: 'array', form: 'Bag', items: [value] }, 'bag Serial', ctx)).toBe('Serial');
  });
});
