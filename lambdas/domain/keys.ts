/**
 * Secret keys and accounts (docs/api.md §8): issuing, registering the local runtime's
 * DEV_API_KEY, authenticating a bearer secret, listing and revoking.
 *
 * An account comes into being with its first key and gets its webhook signing
 * secret then; later keys of the account share that secret. Everything here
 * talks to the KeyStore port only, so the CLI, the local runtime and the
 * authoriser use the same rules whatever stores the records.
 */
import type { ApiKeyRecord, Caller, KeyRole } from './model';
import type { Clock, IdSource, KeyStore } from './ports';
import { iso } from './ids';
import { isValidRetentionDays, RETENTION_DAYS_RULE } from './retention';
import {
  displayPrefix,
  generateSecret,
  generateWebhookSecret,
  hasValidChecksum,
  hashSecret,
  type KeyMode,
} from './keys/secret-format';

export { generateSecret, hasValidChecksum, hashSecret, type KeyMode } from './keys/secret-format';

export const KEY_ROLES: readonly KeyRole[] = ['standard', 'admin'];
export const ACCOUNT_ID_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** A request the key tools cannot carry out as asked (bad account name, unusable secret). */
export class KeyRequestError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyRequestError';
  }
}

export interface IssuedKey {
  id: string;
  /** The secret itself: shown once, never stored. */
  key: string;
  account: string;
  role: KeyRole;
  webhookSecret: string;
}

/** A key as listings show it: never the hash, never the secret. */
export interface KeySummary {
  id: string;
  account: string;
  role: KeyRole;
  prefix: string;
  createdAt: string;
  revokedAt: string | null;
}

export const isValidAccountId = (value: unknown): value is string =>
  typeof value === 'string' && ACCOUNT_ID_RE.test(value);

function assertAccountId(accountId: string): void {
  if (!isValidAccountId(accountId)) {
    throw new KeyRequestError(
      `account "${accountId}" is not a valid account name: use 1 to 63 lower-case letters, digits, "_" or "-", starting with a letter or digit`,
    );
  }
}

function assertRole(role: string): asserts role is KeyRole {
  if (!KEY_ROLES.includes(role as KeyRole)) {
    throw new KeyRequestError(`role "${role}" is not one of ${KEY_ROLES.join(', ')}`);
  }
}

/** The account's webhook secret, creating the account with a fresh one if it is new. */
async function ensureAccountSecret(keys: KeyStore, accountId: string, createdAt: string): Promise<string> {
  const existing = await keys.getAccount(accountId);
  if (existing) return existing.webhookSecret;
  const account = await keys.ensureAccount({ id: accountId, webhookSecret: generateWebhookSecret(), createdAt });
  return account.webhookSecret;
}

async function storeKey(
  keys: KeyStore,
  ids: IdSource,
  clock: Clock,
  secret: string,
  accountId: string,
  role: KeyRole,
): Promise<IssuedKey> {
  const createdAt = iso(clock.now());
  const webhookSecret = await ensureAccountSecret(keys, accountId, createdAt);
  const record: ApiKeyRecord = {
    id: ids.next('key'),
    accountId,
    role,
    hash: hashSecret(secret),
    prefix: displayPrefix(secret),
    createdAt,
    revokedAt: null,
  };
  await keys.putKey(record);
  return { id: record.id, key: secret, account: accountId, role, webhookSecret };
}

/** Creates a new random key for the account (and the account, if it is new). */
export async function issueKey(
  keys: KeyStore,
  ids: IdSource,
  clock: Clock,
  opts: { accountId: string; role?: KeyRole; mode?: KeyMode },
): Promise<IssuedKey> {
  const role = opts.role ?? 'standard';
  assertAccountId(opts.accountId);
  assertRole(role);
  return storeKey(keys, ids, clock, generateSecret(opts.mode ?? 'live'), opts.accountId, role);
}

/**
 * Registers a given secret verbatim (the local runtime's DEV_API_KEY), which need
 * not have a checksum. Registering the same secret again returns the existing key,
 * so the local runtime can do it on every start. A revoked one stays revoked:
 * that is refused loudly rather than leaving a key that silently does not work.
 */
export async function registerKey(
  keys: KeyStore,
  ids: IdSource,
  clock: Clock,
  opts: { secret: string; accountId: string; role?: KeyRole },
): Promise<IssuedKey> {
  const role = opts.role ?? 'standard';
  assertAccountId(opts.accountId);
  assertRole(role);
  const secret = opts.secret;
  if (typeof secret !== 'string' || secret.length === 0 || secret.length > 256 || /\s/.test(secret)) {
    throw new KeyRequestError('the secret to register must be 1 to 256 characters without spaces');
  }
  const existing = await keys.findByHash(hashSecret(secret));
  if (existing) {
    if (existing.revokedAt !== null) {
      throw new KeyRequestError(`this secret is registered as ${existing.id}, which was revoked at ${existing.revokedAt}; choose another`);
    }
    const webhookSecret = await ensureAccountSecret(keys, existing.accountId, existing.createdAt);
    return { id: existing.id, key: secret, account: existing.accountId, role: existing.role, webhookSecret };
  }
  return storeKey(keys, ids, clock, secret, opts.accountId, role);
}

/**
 * The caller a bearer secret stands for, or null. The checksum is checked first so
 * a malformed or mistyped key costs no read; only the configured dev key may skip it.
 */
export async function authenticate(keys: KeyStore, secret: string, devApiKey?: string): Promise<Caller | null> {
  if (typeof secret !== 'string' || secret === '') return null;
  if (!hasValidChecksum(secret) && (devApiKey === undefined || devApiKey === '' || secret !== devApiKey)) return null;
  const record = await keys.findByHash(hashSecret(secret));
  if (!record || record.revokedAt !== null) return null;
  return { accountId: record.accountId, keyId: record.id, role: record.role };
}

/** Revokes a key; false when there is no such key. */
export async function revokeKey(keys: KeyStore, clock: Clock, keyId: string): Promise<boolean> {
  if (typeof keyId !== 'string' || !keyId.startsWith('key_')) return false;
  return keys.revokeKey(keyId, iso(clock.now()));
}

/** Keys of one account (or all accounts), oldest first. */
export async function listKeys(keys: KeyStore, accountId?: string): Promise<KeySummary[]> {
  if (accountId !== undefined) assertAccountId(accountId);
  const records = await keys.listKeys(accountId);
  return records
    .map((r) => ({ id: r.id, account: r.accountId, role: r.role, prefix: r.prefix, createdAt: r.createdAt, revokedAt: r.revokedAt }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Gives the account a new webhook signing secret and returns it. Every webhook
 * signed after this (each delivery reads the secret) uses the new one only, so
 * the shop must have it before or as it is rotated.
 */
export async function rotateWebhookSecret(keys: KeyStore, accountId: string): Promise<string> {
  assertAccountId(accountId);
  const secret = generateWebhookSecret();
  if (!(await keys.setAccountWebhookSecret(accountId, secret))) throw new KeyRequestError(`no account ${accountId}; an account comes into being with its first key`);
  return secret;
}

/**
 * Gives the account its own retention period in days (domain/retention.ts), or with null the
 * deployment's again. Applies to jobs created from now on; a job keeps the expiry it was created with.
 */
export async function setAccountRetention(keys: KeyStore, accountId: string, days: number | null): Promise<void> {
  assertAccountId(accountId);
  if (days !== null && !isValidRetentionDays(days)) throw new KeyRequestError(`the retention period must be ${RETENTION_DAYS_RULE}`);
  if (!(await keys.setAccountRetention(accountId, days))) throw new KeyRequestError(`no account ${accountId}; an account comes into being with its first key`);
}
