/**
 * Which URLs a job may make the service fetch or call (docs/api.md §9, §10):
 * source URLs and the webhook URL pass the network policy of the runtime
 * (cloud: https, no literal private/loopback/link-local/metadata address;
 * local: loopback only). Checked at submission so a client learns at once; the
 * fetcher and webhook caller check again, including every resolved address.
 */
import { ApiError } from '../domain/errors';
import type { JobRequest } from '../domain/use-cases/job-request';
import type { NetworkMode } from '../platform/config';
import { checkUrl } from '../platform/net/url-policy';

function assertAllowed(url: string, mode: NetworkMode, reservedPorts: readonly number[], param: string): void {
  const check = checkUrl(url, mode, reservedPorts);
  if (!check.ok) throw new ApiError('validation_error', `${param}: ${check.reason}`, param);
}

export function assertRequestUrlsAllowed(request: JobRequest, mode: NetworkMode, reservedPorts: readonly number[] = []): void {
  request.sources.forEach((source, i) => {
    if (source.input.kind === 'url') assertAllowed(source.input.url, mode, reservedPorts, `sources[${i}].url`);
  });
  if (request.webhook) assertAllowed(request.webhook.url, mode, reservedPorts, 'webhook.url');
}
