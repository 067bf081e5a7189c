/** Sign in with an API key: checked against the API before it is kept (sessionStorage only). */
import { useState } from 'preact/hooks';
import { api, ApiFailure } from '../api';
import { signIn, signOut } from '../session';

export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    signIn(key.trim());
    try {
      await api('GET', '/jobs?limit=1&preview=true');
      onSignedIn();
    } catch (err) {
      signOut();
      setError(err instanceof ApiFailure && err.status === 401 ? 'That key was not accepted. Check it and try again.' : (err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" class="sign-in" tabIndex={-1}>
      <h1>Sign in to Proofline</h1>
      <p>Use an API key of your account. It is kept in this browser tab only and forgotten when the tab closes.</p>
      <form onSubmit={submit}>
        <label for="api-key">API key</label>
        <input id="api-key" name="api-key" type="password" autocomplete="off" required value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
        <button type="submit" disabled={busy || key.trim() === ''}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
    </main>
  );
}
