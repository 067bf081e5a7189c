/**
 * JSON with object keys sorted at every level, so two bodies that mean the same
 * (`{"a":1,"b":2}` and `{ "b": 2, "a": 1 }`) hash the same for idempotency.
 * Array order is kept: it is meaningful (sources, steps).
 */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}
