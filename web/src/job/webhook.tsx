/** The job's webhook and every delivery attempt (docs/api.md §9): when, the answer, how long, what went wrong. */
import { formatTime } from '../format';
import type { JobDetail } from './job-detail';

export function WebhookDeliveries({ webhook }: { webhook: NonNullable<JobDetail['webhook']> }) {
  return (
    <section class="webhook" aria-labelledby="webhook-heading">
      <h2 id="webhook-heading">Webhook</h2>
      <p>
        Sent to <code class="url">{webhook.url}</code>
      </p>
      {webhook.deliveries.length === 0 ? (
        <p>No delivery yet: it is sent when the job finishes.</p>
      ) : (
        <table class="deliveries">
          <caption class="visually-hidden">Webhook deliveries</caption>
          <thead>
            <tr>
              <th scope="col">Attempt</th>
              <th scope="col">At</th>
              <th scope="col">Answer</th>
              <th scope="col">Took</th>
              <th scope="col">Error</th>
            </tr>
          </thead>
          <tbody>
            {webhook.deliveries.map((d) => {
              const ok = d.statusCode !== null && d.statusCode >= 200 && d.statusCode < 300;
              return (
                <tr>
                  <td>{d.attempt}</td>
                  <td>
                    <time dateTime={d.at}>{formatTime(d.at)}</time>
                  </td>
                  <td>
                    <span class={`badge badge-${ok ? 'pass' : 'fail'}`}>
                      <span aria-hidden="true">{ok ? '✓' : '✕'}</span> {d.statusCode ?? 'no answer'}
                    </span>
                  </td>
                  <td>{d.durationMs} ms</td>
                  <td>{d.error ?? '–'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
