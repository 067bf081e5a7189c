/**
 * The local runtime's share-link key (SHARE_SIGNING_KEY; in the cloud a
 * Secrets Manager secret the stack generates). Given in the environment, it
 * is used as it is; otherwise one is generated and kept in the data directory
 * (readable by its owner only), so the links made before a restart still work
 * after it. An in-memory runtime gets a fresh key each start.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SHARE_KEY_FILE = 'share-signing-key';

export function localShareKey(dataDir: string | null): string {
  const fresh = () => randomBytes(32).toString('base64url');
  if (!dataDir) return fresh();
  const path = join(dataDir, SHARE_KEY_FILE);
  if (existsSync(path)) {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept.length >= 32) return kept;
  }
  const key = fresh();
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return key;
}
