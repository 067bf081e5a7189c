/**
 * One job (GET /jobs/{id}): its state, each file's steps, downloads and audit log as a timeline.
 * Refreshed while the job runs.
 */
import { useState } from 'preact/hooks';
import { api, isTerminal, type Artifact, type Job, type Task } from '../api';
import { Badge } from '../badge';
import { formatBytes, formatTime, words } from '../format';
import { usePolling } from '../poll';
import { ProgressBar } from '../progress-bar';

function Downloads({ files }: { files: Artifact[] }) {
  const withLinks = files.filter((f) => f.downloadUrl);
  if (withLinks.length === 0) return <p>No files to download yet.</p>;
  return (
    <ul class="downloads">
      {withLinks.map((f) => (
        <li>
          <a href={f.downloadUrl} download={f.fileName} rel="noreferrer">
            {f.fileName}
          </a>{' '}
          <span class="muted">
            ({words(f.role)}
            {f.page !== undefined ? `, page ${f.page}` : ''}, {formatBytes(f.sizeBytes)})
          </span>
        </li>
      ))}
    </ul>
  );
}

function TaskSection({ task, index }: { task: Task; index: number }) {
  const files = [...(task.originalArtifact ? [task.originalArtifact] : []), ...(task.outputArtifacts ?? [])];
  const headingId = `task-${index}`;
  return (
    <section class="task" aria-labelledby={headingId} data-task-id={task.id}>
      <h2 id={headingId}>{task.source}</h2>
      <p>
        <Badge value={task.status} label="Status" /> <Badge value={task.outcome} label="Outcome" />
        {task.fileType && <span class="muted"> {task.fileType}</span>}
      </p>
      <ProgressBar progress={task.progress} label={`Progress of ${task.source}`} />
      {task.reason && <p class="reason">{task.reason}</p>}
      <h3>Steps</h3>
      <ol class="steps">
        {(task.steps ?? []).map((s) => (
          <li>
            {words(s.type)}: <Badge value={s.status} label="Status" /> <Badge value={s.outcome} label="Outcome" />
            {s.reason && <span class="reason"> {s.reason}</span>}
          </li>
        ))}
      </ol>
      <h3>Downloads</h3>
      <Downloads files={files} />
      <h3>Audit log</h3>
      <ol class="timeline">
        {(task.audit ?? []).map((a) => (
          <li>
            <time dateTime={a.at}>{formatTime(a.at)}</time> <span class="muted">{a.event}</span> {a.message}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function JobPage({ id }: { id: string }) {
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<string | null>(null);

  usePolling(
    async (current) => {
      try {
        const { job: next } = await api<{ job: Job }>('GET', `/jobs/${encodeURIComponent(id)}`);
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
          {job.tasks.map((t, i) => (
            <TaskSection task={t} index={i} />
          ))}
        </>
      )}
    </main>
  );
}
