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

export function signOut(): void {
  sessionStorage.removeItem(KEY);
}
