/**
 * Identifiers of the contract (§1): `<prefix>_<ulid>` with the ULID in lower case,
 * so ids sort by creation time as plain strings (the job list relies on this).
 */
import { monotonicFactory, decodeTime, encodeTime } from 'ulid';
import type { Clock, IdSource } from './ports';

export type IdPrefix = Parameters<IdSource['next']>[0];

const ULID_RE = /^[0-9a-hjkmnp-tv-z]{26}$/;

export function isId(prefix: IdPrefix, value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith(`${prefix}_`)) return false;
  return ULID_RE.test(value.slice(prefix.length + 1));
}

/** Milliseconds since the epoch at which the id was minted. */
export function idTime(id: string): number {
  return decodeTime(id.slice(id.indexOf('_') + 1).toUpperCase());
}

/**
 * The smallest id of this prefix minted at `ms` or later: a sort-key bound for
 * "created at or after". (Pair with `idUpperBound` for "at or before".)
 */
export function idLowerBound(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms, 10).toLowerCase()}${'0'.repeat(16)}`;
}
export function idUpperBound(prefix: IdPrefix, ms: number): string {
  return `${prefix}_${encodeTime(ms, 10).toLowerCase()}${'z'.repeat(16)}`;
}

export function ulidIdSource(clock: Clock = { now: () => new Date() }): IdSource {
  const next = monotonicFactory();
  return { next: (prefix) => `${prefix}_${next(clock.now().getTime()).toLowerCase()}` };
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with milliseconds, as the contract writes every timestamp. */
export const iso = (d: Date): string => d.toISOString();
