/**
 * An account's own preflight profiles (docs/api.md §11 rule 10): POST /profiles,
 * PUT and DELETE /profiles/{id}, and resolving one for a job. Only admin keys
 * write; every key of the account reads and uses them; another account's
 * profile is absent everywhere (404, or at submission 400 profile_not_found),
 * never "forbidden", so its existence does not leak.
 *
 * A profile is kept as its definition (a built-in base and the changes), one
 * current version; a job resolves it at submission into the full profile it
 * runs with (engine/preflight/account-profile.ts), so later versions never
 * change that job.
 */
import { ApiError } from '../errors';
import { iso } from '../ids';
import type { AccountProfileRecord, Caller } from '../model';
import type { Clock, ProfileStore } from '../ports';
import { resolveAccountProfile, type ProfileDefinition } from '../../engine/preflight/account-profile';
import type { PreflightProfileInfo } from '../../engine/preflight/profiles';
import { findPreflightProfile } from '../../engine/profile-catalogue';

/** How many profiles an account may keep (docs/api.md §11 rule 10). */
export const MAX_PROFILES_PER_ACCOUNT = 200;

/** Attempts at a PUT whose version another PUT took meanwhile; each reads the current version again. */
const REPLACE_ATTEMPTS = 3;

export interface AccountProfileDeps {
  profiles: ProfileStore;
  clock: Clock;
}

/** A definition as a request gives it: the id may be left to the service (derived from the name). */
export type ProfileInput = Omit<ProfileDefinition, 'id'> & { id?: string | undefined };

function assertAdmin(caller: Caller): void {
  if (caller.role !== 'admin') throw new ApiError('forbidden', 'Only keys with the admin role can create, change or delete profiles.');
}

/** A slug of the name (`Business cards 300 ppi` → `business-cards-300-ppi`), at most 60 characters so a suffix fits. */
export function profileSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '');
  return slug || 'profile';
}

/** Candidate ids for a profile without one: the slug, then the slug with -2, -3, … (never a built-in's id). */
function* derivedIds(name: string): Generator<string> {
  const slug = profileSlug(name);
  for (let n = 1; n <= 50; n++) {
    const id = n === 1 ? slug : `${slug}-${n}`;
    if (!findPreflightProfile(id)) yield id;
  }
}

function recordOf(caller: Caller, id: string, input: ProfileInput, version: number, createdAt: string, now: string): AccountProfileRecord {
  return {
    accountId: caller.accountId,
    id,
    version,
    name: input.name,
    description: input.description,
    kind: input.kind,
    base: input.base,
    checks: input.checks,
    recommendFixes: input.recommendFixes,
    createdAt,
    updatedAt: now,
    updatedByKeyId: caller.keyId,
  };
}

export async function createAccountProfile(deps: AccountProfileDeps, caller: Caller, input: ProfileInput): Promise<AccountProfileRecord> {
  assertAdmin(caller);
  // Checked before writing: concurrent creates may each see room for one more and pass it together.
  if ((await deps.profiles.countProfiles(caller.accountId)) >= MAX_PROFILES_PER_ACCOUNT) {
    throw new ApiError('profile_limit_reached', `The account has ${MAX_PROFILES_PER_ACCOUNT} profiles, as many as it may; delete one first.`);
  }
  const now = iso(deps.clock.now());
  if (input.id !== undefined) {
    const record = recordOf(caller, input.id, input, 1, now, now);
    if (!(await deps.profiles.createProfile(record))) {
      throw new ApiError('profile_exists', `The account already has a profile "${input.id}"; change it with PUT /profiles/${input.id}.`, 'id');
    }
    return record;
  }
  for (const id of derivedIds(input.name)) {
    const record = recordOf(caller, id, input, 1, now, now);
    if (await deps.profiles.createProfile(record)) return record;
  }
  throw new ApiError('profile_exists', 'Every id made from this name is taken; give the profile an `id`.', 'id');
}

/** PUT /profiles/{id}: the whole definition again, as the next version. */
export async function replaceAccountProfile(deps: AccountProfileDeps, caller: Caller, id: string, input: ProfileInput): Promise<AccountProfileRecord> {
  assertAdmin(caller);
  if (input.id !== undefined && input.id !== id) {
    throw new ApiError('validation_error', `id: must be "${id}", the profile's id in the path (a profile's id cannot change)`, 'id');
  }
  for (let attempt = 0; attempt < REPLACE_ATTEMPTS; attempt++) {
    const current = await deps.profiles.getProfile(caller.accountId, id);
    if (!current) throw new ApiError('not_found', 'No such profile. GET /profiles lists them.');
    const next = recordOf(caller, id, input, current.version + 1, current.createdAt, iso(deps.clock.now()));
    // Another PUT took this version meanwhile: read again, and write after it.
    if (await deps.profiles.replaceProfile(next)) return next;
  }
  throw new ApiError('service_unavailable', 'The profile is being changed by other requests at the same time; retry in a moment.');
}

export async function deleteAccountProfile(deps: Pick<AccountProfileDeps, 'profiles'>, caller: Caller, id: string): Promise<void> {
  assertAdmin(caller);
  if (!(await deps.profiles.deleteProfile(caller.accountId, id))) throw new ApiError('not_found', 'No such profile. GET /profiles lists them.');
}

/** The full profile an account profile runs as (its base with its changes), at the version stored. */
export function resolvedAccountProfile(record: AccountProfileRecord): PreflightProfileInfo {
  const base = findPreflightProfile(record.base);
  // The schema admits built-in bases only, and built-ins are not withdrawn: a record without one is a deployment's mistake.
  if (!base) throw new Error(`profile ${record.accountId}/${record.id}: its base "${record.base}" is no built-in profile`);
  return resolveAccountProfile(record, base, record.version);
}

/**
 * The profile a job step names, for the job's record: null for a built-in (the step keeps just
 * its id), the resolved profile for one of the account's own, undefined when the account has
 * none by that id (the caller refuses the request).
 */
export async function profileForJob(profiles: Pick<ProfileStore, 'getProfile'>, accountId: string, profileId: string): Promise<PreflightProfileInfo | null | undefined> {
  if (findPreflightProfile(profileId)) return null;
  const record = await profiles.getProfile(accountId, profileId);
  return record ? resolvedAccountProfile(record) : undefined;
}
