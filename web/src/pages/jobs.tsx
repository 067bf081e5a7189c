/**
 * The account's jobs, newest first (GET /jobs): filters, paging by nextKey, and rows that update
 * in place while any job on the page is still running.
 */
import { useState } from 'preact/hooks';
import { api, isTerminal, type JobList } from '../api';
import { Badge } from '../badge';
import { formatTime } from '../format';
import { usePolling } from '../poll';
import { ProgressBar } from '../progress-bar';
import { CHANNELS, OUTCOMES, STATUSES } from '../../../lambdas/domain/vocabulary';

interface Filters {
  status: string;
  outcome: string;
  channel: string;
  orderId: string;
  customerId: string;
  createdAfter: string;
  createdBefore: string;
}
const NO_FILTERS: Filters = { status: '', outcome: '', channel: '', orderId: '', customerId: '', createdAfter: '', createdBefore: '' };

function query(filters: Filters, nextKey: string | null): string {
  const q = new URLSearchParams({ limit: '20', preview: 'true' });
  for (const [name, value] of Object.entries(filters)) {
    if (value === '') continue;
    // Dates from the date inputs: the whole day counts.
    if (name === 'createdAfter') q.set(name, new Date(`${value}T00:00:00`).toISOString());
    else if (name === 'createdBefore') q.set(name, new Date(`${value}T23:59:59.999`).toISOString());
    else q.set(name, value);
  }
  if (nextKey) q.set('nextKey', nextKey);
  return `/jobs?${q}`;
}

export function JobsPage() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [draft, setDraft] = useState<Filters>(NO_FILTERS);
  // The keys of the pages before this one, so "Previous" can go back.
  const [pages, setPages] = useState<(string | null)[]>([null]);
  const [list, setList] = useState<JobList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pageKey = pages[pages.length - 1] ?? null;

  usePolling(
    async (current) => {
      try {
        const next = await api<JobList>('GET', query(filters, pageKey));
        if (!current()) return false;
        setList(next);
        setError(null);
        return next.jobs.some((j) => !isTerminal(j.status));
      } catch (e) {
        if (current()) setError((e as Error).message);
        return false;
      }
    },
    [filters, pageKey],
  );

  const field = (name: keyof Filters) => ({
    id: `filter-${name}`,
    name,
    value: draft[name],
    onInput: (e: Event) => setDraft({ ...draft, [name]: (e.target as HTMLInputElement).value }),
  });

  /** A filter with a closed set of values, or any. */
  const choice = (name: keyof Filters, label: string, values: readonly string[]) => (
    <>
      <label for={`filter-${name}`}>{label}</label>
      <select {...field(name)}>
        <option value="">any</option>
        {values.map((v) => (
          <option value={v}>{v}</option>
        ))}
      </select>
    </>
  );

  return (
    <main id="main" tabIndex={-1}>
      <h1>Jobs</h1>
      <p>
        <a href="#/new">New job</a>: upload files and choose what to do with them.
      </p>
      <form
        class="filters"
        aria-label="Filter jobs"
        onSubmit={(e) => {
          e.preventDefault();
          setPages([null]);
          setFilters(draft);
        }}
      >
        {choice('status', 'Status', STATUSES)}
        {choice('outcome', 'Outcome', OUTCOMES)}
        {choice('channel', 'Channel', CHANNELS)}
        <label for="filter-orderId">Order id</label>
        <input type="text" {...field('orderId')} />
        <label for="filter-customerId">Customer id</label>
        <input type="text" {...field('customerId')} />
        <label for="filter-createdAfter">Created from</label>
        <input type="date" {...field('createdAfter')} />
        <label for="filter-createdBefore">Created until</label>
        <input type="date" {...field('createdBefore')} />
        <button type="submit">Apply filters</button>
      </form>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {list && list.jobs.length === 0 && <p>No jobs match.</p>}
      {list && list.jobs.length > 0 && (
        <table class="jobs">
          <caption class="visually-hidden">Jobs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Job</th>
              <th scope="col">Files</th>
              <th scope="col">Status</th>
              <th scope="col">Outcome</th>
              <th scope="col">Can proceed</th>
              <th scope="col">Order</th>
              <th scope="col">Customer</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.jobs.map((job) => (
              <tr key={job.id} data-job-id={job.id}>
                <td>
                  <a href={`#/jobs/${job.id}`}>{job.id}</a>
                </td>
                <td>{job.tasks.map((t) => t.source).join(', ')}</td>
                <td>
                  <Badge value={job.status} label="Status" />
                  {!isTerminal(job.status) && <ProgressBar progress={job.progress} label={`Progress of job ${job.id}`} />}
                </td>
                <td>
                  <Badge value={job.outcome} label="Outcome" />
                </td>
                <td>{job.canProceed === null ? '–' : job.canProceed ? 'yes' : 'no'}</td>
                <td>{job.orderId ?? '–'}</td>
                <td>{job.customerId ?? '–'}</td>
                <td>{formatTime(job.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <nav class="paging" aria-label="Pages of jobs">
        <button type="button" disabled={pages.length < 2} onClick={() => setPages(pages.slice(0, -1))}>
          Previous page
        </button>
        <button type="button" disabled={!list?.nextKey} onClick={() => list?.nextKey && setPages([...pages, list.nextKey])}>
          Next page
        </button>
      </nav>
    </main>
  );
}
