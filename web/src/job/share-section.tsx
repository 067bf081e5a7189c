/**
 * Sharing a job's proof with the shop's customer (docs/api.md §3, Share links): a link made with
 * POST /jobs/{id}/share, shown to copy into a message, the customer's decision once they made it
 * (`job.approval`), and withdrawing every link made so far (DELETE /jobs/{id}/share).
 *
 * The link is only shown, never kept: it grants a view of the job to whoever holds it, so the
 * console does not store it anywhere (the API does not list links either; a lost one is replaced
 * by making another).
 */
import { useState } from 'preact/hooks';
import { api, isTerminal } from '../api';
import { formatTime } from '../format';
import type { JobDetail } from './job-detail';

const DAY = 86_400;
/** The lifetimes offered; the API allows up to 30 days and defaults to 7. */
const LIFETIMES = [
  { days: 1, label: '1 day' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
];

interface MadeLink {
  url: string;
  expiresAt: string;
}

export function ShareSection({ job }: { job: JobDetail }) {
  const [days, setDays] = useState(7);
  const [allowDecision, setAllowDecision] = useState(true);
  const [link, setLink] = useState<MadeLink | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `/jobs/${encodeURIComponent(job.id)}/share`;

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const make = () =>
    run(async () => {
      setLink(await api<MadeLink>('POST', path, { expiresInSeconds: days * DAY, allowDecision }));
    });

  const withdraw = () =>
    run(async () => {
      await api<null>('DELETE', path);
      setLink(null);
      setStatus('Every link made so far for this job no longer opens it.');
    });

  const copy = () =>
    run(async () => {
      if (!link) return;
      await navigator.clipboard.writeText(link.url);
      setStatus('Link copied.');
    });

  return (
    <section class="share" aria-labelledby="share-heading">
      <h2 id="share-heading">Share with the customer</h2>
      {job.approval && (
        <p class="approval">
          <span class={`badge badge-${job.approval.decision === 'approved' ? 'pass' : 'fail'}`}>
            <span aria-hidden="true">{job.approval.decision === 'approved' ? '✓' : '✎'}</span>{' '}
            {job.approval.decision === 'approved' ? 'The customer approved the proof' : 'The customer asked for changes'}
          </span>{' '}
          on <time dateTime={job.approval.at}>{formatTime(job.approval.at)}</time>
          {job.approval.note && <>: “{job.approval.note}”</>}
        </p>
      )}
      {!isTerminal(job.status) ? (
        <p>A proof can be shared once the job has finished.</p>
      ) : (
        <form class="share-form" onSubmit={(e) => (e.preventDefault(), void make())}>
          <p>The customer sees this job's pages with the findings marked, and the fixed file when there is one; nothing else of your account.</p>
          <label for="share-days">Link works for</label>
          <select id="share-days" value={days} onChange={(e) => setDays(Number((e.target as HTMLSelectElement).value))}>
            {LIFETIMES.map((l) => (
              <option value={l.days}>{l.label}</option>
            ))}
          </select>
          <label class="check">
            <input type="checkbox" checked={allowDecision} onChange={(e) => setAllowDecision((e.target as HTMLInputElement).checked)} /> The customer may approve
            or ask for changes
          </label>
          <div class="share-buttons">
            <button type="submit" disabled={busy}>
              Make a link
            </button>
            <button type="button" class="secondary" disabled={busy} onClick={() => void withdraw()}>
              Withdraw all links
            </button>
          </div>
        </form>
      )}
      {link && (
        <div class="share-link">
          <label for="share-url">Link for the customer (valid until {formatTime(link.expiresAt)})</label>
          <input id="share-url" type="text" readOnly value={link.url} onFocus={(e) => (e.target as HTMLInputElement).select()} />
          <button type="button" disabled={busy} onClick={() => void copy()}>
            Copy link
          </button>
        </div>
      )}
      {status && (
        <p role="status" class="muted">
          {status}
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </section>
  );
}
