/**
 * The signed-in API key. It lives in sessionStorage only: gone when the tab closes, never in
 * localStorage (which outlives the session and every tab shares), never in a URL (which lands in
 * history, logs and Referer headers).
 */
const KEY = 'proofline.apiKey';

export function currentKey(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function signIn(key: string): void {
  sessionStorage.setItem(KEY, key);
}

/** Forgets the key and everything the console kept for it (such as the jobs the job page started: job/companion-jobs.ts). */
export function signOut(): void {
  for (const name of Object.keys(sessionStorage)) if (name.startsWith('proofline.')) sessionStorage.removeItem(name);
}
