import { describe, expect, it } from 'vitest';
import { findJsonHazard, MAX_JSON_DEPTH } from '../../../../lambdas/api/middleware/json-hazards';

/** The hazard in a body written as text (it must be JSON that JSON.parse accepts, as the middleware ensures). */
const hazard = (text: string) => {
  JSON.parse(text);
  return findJsonHazard(text);
};
const nested = (levels: number, open = '{"a":', close = '}', inner = '1') => `${open.repeat(levels)}${inner}${close.repeat(levels)}`;

describe('findJsonHazard: what JSON.parse accepts but a body must not carry', () => {
  it('finds nothing in ordinary bodies, strings that look like hazards included', () => {
    expect(hazard('{"sources":[{"url":"https://example.com/a.pdf","name":"__proto__ \\"constructor\\"","params":{"dpi":300,"scale":0.5,"n":-1e-3}}],"metaData":{"a":[],"b":{},"c":[1,[2,[3]]],"d":null,"e":true}}')).toBeNull();
    expect(hazard('{"big":9007199254740991,"neg":-9007199254740991,"f":1.5e125,"tiny":1.5e-130,"zero":0,"z2":0.0,"z3":-0e10}')).toBeNull();
    expect(hazard('{"a\\"b":1,"a\\\\":2,"k":"}{][,"}')).toBeNull();
  });

  it('refuses nesting beyond 32 levels and names where it went too deep; 32 levels pass', () => {
    expect(hazard(nested(MAX_JSON_DEPTH))).toBeNull();
    expect(hazard(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ param: Array(MAX_JSON_DEPTH).fill('a').join('.'), message: expect.stringContaining('nested too deeply') });
    expect(hazard(nested(5000, '[', ']'))).toMatchObject({ param: Array(MAX_JSON_DEPTH).fill('[0]').join(''), message: expect.stringContaining('at most 32') });
    expect(hazard(`{"metaData":${nested(5000)}}`)!.param).toMatch(/^metaData(\.a)+$/);
  });

  it('refuses a key given twice in one object, wherever it is, but not the same key in sibling objects', () => {
    expect(hazard('{"a":1,"a":2}')).toMatchObject({ param: 'a', message: expect.stringContaining('twice') });
    expect(hazard('{"sources":[{"url":"x"},{"url":"y","url":"z"}]}')).toMatchObject({ param: 'sources[1].url' });
    expect(hazard('{"a":{"k":1},"b":{"k":2}}')).toBeNull();
    // Escapes are decoded before keys are compared.
    expect(hazard('{"ab":1,"\\u0061b":2}')).toMatchObject({ param: 'ab' });
  });

  it('refuses the keys __proto__, constructor and prototype at any depth', () => {
    expect(hazard('{"metaData":{"__proto__":{"admin":true}}}')).toMatchObject({ param: 'metaData.__proto__', message: expect.stringContaining('reserved key') });
    expect(hazard('{"sources":[{"params":{"x":{"constructor":1}}}]}')).toMatchObject({ param: 'sources[0].params.x.constructor' });
    expect(hazard('{"prototype":1}')).toMatchObject({ param: 'prototype' });
    expect(hazard('{"metaData":{"\\u005f_proto__":1}}')).toMatchObject({ param: 'metaData.__proto__' });
  });

  it('refuses numbers that cannot be kept as sent', () => {
    expect(hazard('{"metaData":{"n":1e400}}')).toMatchObject({ param: 'metaData.n', message: expect.stringContaining('too large') });
    expect(hazard('{"metaData":{"n":9007199254740993}}')).toMatchObject({ param: 'metaData.n', message: expect.stringContaining('lose digits') });
    expect(hazard('{"metaData":{"n":-9007199254740993}}')).not.toBeNull();
    expect(hazard('{"metaData":{"list":[1,2,1e200]}}')).toMatchObject({ param: 'metaData.list[2]', message: expect.stringContaining('1E-130 to 1E126') });
    expect(hazard('{"metaData":{"n":1e-200}}')).toMatchObject({ param: 'metaData.n' });
    expect(hazard('{"n":1e-400}')).toMatchObject({ param: 'n', message: expect.stringContaining('from 0') });
    expect(hazard('{"sources":[{"params":{"dpi":1e400}}]}')).toMatchObject({ param: 'sources[0].params.dpi' });
  });

  it('names array positions after empty arrays and nested arrays correctly', () => {
    expect(hazard('{"a":[[],[1e400]]}')).toMatchObject({ param: 'a[1][0]' });
    expect(hazard('{"a":[[], {}, {"__proto__":1}]}')).toMatchObject({ param: 'a[2].__proto__' });
  });

  it('a body that is not an object is judged too', () => {
    expect(hazard('1e400')).toMatchObject({ param: undefined });
    expect(hazard('[{"a":1,"a":1}]')).toMatchObject({ param: '[0].a' });
  });
});
