/**
 * One job (GET /jobs/{id}): its state; each file with its pages and findings, validation, "Fix
 * it", downloads and audit log (web/src/job/task-section.tsx); the review of a job under manual
 * review, sharing the proof with the customer (web/src/job/share-section.tsx) and the webhook's
 * deliveries. Refreshed while the job runs.
 */
import { useState } from 'preact/hooks';
import { api, isTerminal } from '../api';
import { Badge } from '../badge';
import { formatTime } from '../format';
import { usePolling } from '../poll';
import { useFixCatalogue } from '../job/fix-catalogue';
import type { JobDetail } from '../job/job-detail';
import { Review } from '../job/review';
import { ShareSection } from '../job/share-section';
import { TaskSection } from '../job/task-section';
import { WebhookDeliveries } from '../job/webhook';

export function JobPage({ id }: { id: string }) {
  const [job, setJob] = useState<JobDetail | null>(null);
  const fixes = useFixCatalogue();
  const [error, setError] = useState<string | null>(null);

  usePolling(
    async (current) => {
      try {
        const { job: next } = await api<{ job: JobDetail }>('GET', `/jobs/${encodeURIComponent(id)}`);
        if (!current()) return false;
        setJob(next);
        setError(null);
        return !isTerminal(next.status);
      } catch (e) {
        if (current()) setError((e as Error).message);
        return false;
      }
    },
    [id],
  );

  return (
    <main id="main" tabIndex={-1}>
      <p>
        <a href="#/">← All jobs</a>
      </p>
      <h1>Job {id}</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {job && (
        <>
          <dl class="job-facts">
            <dt>Status</dt>
            <dd>
              <Badge value={job.status} label="Status" />
            </dd>
            <dt>Outcome</dt>
            <dd>
              <Badge value={job.outcome} label="Outcome" />
            </dd>
            <dt>Can proceed</dt>
            <dd>{job.canProceed === null ? '–' : job.canProceed ? 'yes' : 'no'}</dd>
            <dt>Order</dt>
            <dd>{job.orderId ?? '–'}</dd>
            <dt>Customer</dt>
            <dd>{job.customerId ?? '–'}</dd>
            <dt>Created</dt>
            <dd>{formatTime(job.createdAt)}</dd>
          </dl>
          <Review job={job} onReviewed={setJob} />
          <ShareSection job={job} />
          {job.tasks.map((t, i) => (
            <TaskSection job={job} task={t} index={i} fixes={fixes} />
          ))}
          {job.webhook && <WebhookDeliveries webhook={job.webhook} />}
        </>
      )}
    </main>
  );
}
