/**
 * The review of a job whose policy is `manual_review` (docs/api.md §2): the decision once made,
 * or, while the job waits for one, Approve and Reject with a note (POST /jobs/{id}/review). Only
 * admin keys may decide; any other key gets the API's own refusal shown.
 */
import { useState } from 'preact/hooks';
import { api, isTerminal } from '../api';
import { formatTime } from '../format';
import type { JobDetail } from './job-detail';

export function Review({ job, onReviewed }: { job: JobDetail; onReviewed: (job: JobDetail) => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  if (job.policy.onFail !== 'manual_review') return null;

  const decide = async (decision: 'approve' | 'reject') => {
    setSending(true);
    setError(null);
    try {
      const { job: next } = await api<{ job: JobDetail }>('POST', `/jobs/${encodeURIComponent(job.id)}/review`, { decision, ...(note.trim() ? { note: note.trim() } : {}) });
      onReviewed(next);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setSending(false);
    }
  };

  return (
    <section class="review" aria-labelledby="review-heading">
      <h2 id="review-heading">Review</h2>
      {job.review ? (
        <p>
          <span class={`badge badge-${job.review.decision === 'approve' ? 'pass' : 'fail'}`}>
            <span aria-hidden="true">{job.review.decision === 'approve' ? '✓' : '✕'}</span> {job.review.decision === 'approve' ? 'Approved' : 'Rejected'}
          </span>{' '}
          on <time dateTime={job.review.at}>{formatTime(job.review.at)}</time>
          {job.review.note && <>: “{job.review.note}”</>}
        </p>
      ) : !isTerminal(job.status) ? (
        <p>The job is under manual review once it has finished.</p>
      ) : (
        <form class="review-form" onSubmit={(e) => e.preventDefault()}>
          <p>{job.canProceed ? 'No review is needed to proceed, but one may be recorded.' : 'This job waits for a reviewer’s decision before it can proceed.'}</p>
          <label for="review-note">Note (optional, recorded on the job)</label>
          <textarea id="review-note" maxLength={2000} rows={3} value={note} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
          <div class="review-buttons">
            <button type="button" disabled={sending} onClick={() => void decide('approve')}>
              ✓ Approve
            </button>
            <button type="button" class="danger" disabled={sending} onClick={() => void decide('reject')}>
              ✕ Reject
            </button>
          </div>
          {error && (
            <p role="alert" class="error">
              {error}
            </p>
          )}
        </form>
      )}
    </section>
  );
}
