/**
 * The proof page for the shop's customer (issue 17, docs/api.md §3, Share links): opened
 * from a share link `/proof#<token>`, it shows that one job read-only — each
 * file's pages with the findings boxed and numbered, the sentences that say
 * what they mean, the fixed file — and, when the link allows it, lets the
 * customer approve or request changes with a note.
 *
 * Every text from the service (file names and messages are customer input) is
 * rendered as text by Preact, never as markup. The token is read from the
 * fragment, which no server sees, and sent in the Share-Token header.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { loadSharedJob, ShareFailure, type SharedJob } from './shared-api';
import { FileProof } from './file-proof';
import { Decision } from './decision';

/** What the customer reads when the link cannot show the proof: never another job, never a blank page. */
const PROBLEMS: Record<string, { title: string; advice: string }> = {
  share_link_invalid: { title: 'This link is not valid', advice: 'It may have been cut short or changed. Open the link from the message you received again, or ask the sender for a new one.' },
  share_link_expired: { title: 'This link has expired', advice: 'Proof links work for a limited time. Ask the sender for a new link.' },
  share_link_revoked: { title: 'This link was withdrawn', advice: 'The sender no longer shares this proof through this link. Ask them for a new one.' },
  network: { title: 'The proof could not be loaded', advice: 'Check your connection and reload the page.' },
};

function problemOf(error: ShareFailure): { title: string; advice: string } {
  return PROBLEMS[error.code] ?? { title: 'The proof could not be shown', advice: error.message };
}

const tokenFromUrl = (): string => decodeURIComponent(location.hash.replace(/^#/, ''));

function Problem({ error }: { error: ShareFailure }) {
  const p = problemOf(error);
  return (
    <section class="problem" role="alert" aria-labelledby="problem-title">
      <h1 id="problem-title">
        <span aria-hidden="true">⚠ </span>
        {p.title}
      </h1>
      <p>{p.advice}</p>
    </section>
  );
}

function ProofPage() {
  const [token, setToken] = useState(tokenFromUrl());
  const [shared, setShared] = useState<SharedJob | null>(null);
  const [error, setError] = useState<ShareFailure | null>(null);

  useEffect(() => {
    const onHash = () => setToken(tokenFromUrl());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    let current = true;
    setShared(null);
    setError(null);
    if (token === '') {
      setError(new ShareFailure(403, 'share_link_invalid', 'The link has no token.'));
      return;
    }
    loadSharedJob(token).then(
      (s) => current && setShared(s),
      (e: unknown) => current && setError(e instanceof ShareFailure ? e : new ShareFailure(0, 'unknown', String(e))),
    );
    return () => {
      current = false;
    };
  }, [token]);

  return (
    <>
      <header class="top">
        <span class="brand">Proof for approval</span>
      </header>
      <main id="main">
        {error ? (
          <Problem error={error} />
        ) : !shared ? (
          <p aria-live="polite">Loading the proof…</p>
        ) : (
          <>
            <h1>Your proof</h1>
            <p class="muted">
              {shared.job.finished ? 'Checked' : 'Still being checked'} · link valid until {new Date(shared.share.expiresAt).toLocaleString()}
            </p>
            <Decision shared={shared} token={token} onDecided={setShared} />
            {shared.files.map((file, i) => (
              <FileProof key={i} file={file} index={i} />
            ))}
          </>
        )}
      </main>
    </>
  );
}

render(<ProofPage />, document.getElementById('app')!);
