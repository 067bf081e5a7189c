/**
 * The origin a request came to (`https://host`), for links the API hands out
 * when no PUBLIC_ORIGIN is configured: the local runtime, where the console
 * and the API share one origin. API Gateway and CloudFront say the scheme in
 * X-Forwarded-Proto; without it a loopback host is plain http (npm start),
 * anything else https. A Host header that is not a host name (or address and
 * port) is refused, so no link is built from one.
 */
import { ApiError } from '../domain/errors';
import { header, type ApiEvent } from './middleware/http';

const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i;

export function requestOrigin(event: ApiEvent): string {
  const host = header(event, 'host')?.trim() ?? '';
  if (!HOST.test(host)) throw new ApiError('validation_error', 'The request names no usable Host, so no link can be made for it.');
  const forwarded = header(event, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'http' || forwarded === 'https' ? forwarded : LOOPBACK.test(host) ? 'http' : 'https';
  return `${scheme}://${host.toLowerCase()}`;
}
