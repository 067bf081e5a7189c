/**
 * The customer's answer: "Approve" or "Request changes", with a note, when the
 * link allows a decision; afterwards, and for view-only links, what was decided.
 * One decision per proof (docs/api.md §3, Share links), so the buttons go once it is made.
 */
import { useState } from 'preact/hooks';
import { decide, ShareFailure, type Approval, type SharedJob } from './shared-api';

const SAID: Record<Approval['decision'], { symbol: string; words: string }> = {
  approved: { symbol: '✓', words: 'Approved' },
  changes_requested: { symbol: '✎', words: 'Changes requested' },
};

export function Decision({ shared, token, onDecided }: { shared: SharedJob; token: string; onDecided: (s: SharedJob) => void }) {
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (shared.approval) {
    const said = SAID[shared.approval.decision];
    return (
      <section class={`decision decided decided-${shared.approval.decision}`} aria-labelledby="decision-title">
        <h2 id="decision-title">
          <span aria-hidden="true">{said.symbol} </span>
          {said.words}
        </h2>
        <p>Recorded on {new Date(shared.approval.at).toLocaleString()}.</p>
        {shared.approval.note ? <blockquote class="note">{shared.approval.note}</blockquote> : null}
      </section>
    );
  }
  if (!shared.share.allowDecision) return null;
  if (!shared.job.finished) return <p class="muted">You can approve the proof once it has been checked.</p>;

  async function send(decision: Approval['decision']) {
    setBusy(true);
    setError(null);
    try {
      onDecided(await decide(token, decision, note));
    } catch (e) {
      setError(e instanceof ShareFailure ? e.message : 'The decision could not be sent. Try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section class="decision" aria-labelledby="decision-title">
      <h2 id="decision-title">Your decision</h2>
      <p>Look through the pages below, then approve the proof for printing or ask for changes. You can decide once.</p>
      <label for="note">Note for the print shop (optional)</label>
      <textarea id="note" rows={3} maxLength={2000} value={note} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
      <div class="decision-buttons">
        <button type="button" class="approve" disabled={busy} onClick={() => void send('approved')}>
          <span aria-hidden="true">✓ </span>Approve
        </button>
        <button type="button" class="changes" disabled={busy} onClick={() => void send('changes_requested')}>
          <span aria-hidden="true">✎ </span>Request changes
        </button>
      </div>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
