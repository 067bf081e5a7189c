/**
 * The static check on a URL the service will fetch or call (source URLs,
 * webhooks): what can be decided from the text alone, at submission time and
 * again before every request and redirect. The address a name resolves to is
 * checked when connecting (guarded-request.ts), which this cannot replace.
 */
import type { NetworkMode } from '../config';
import { classifyAddress, describeRefusedAddress, isAllowedAddress, isIpLiteral } from './address-policy';

export type UrlCheck = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * Names that only mean something inside a network (RFC 6761 / 6762 / 8375 and
 * cloud-internal zones such as `ec2.internal`, `metadata.google.internal`).
 */
const INTERNAL_SUFFIXES = ['localhost', 'internal', 'local', 'localdomain', 'arpa', 'home', 'lan', 'corp', 'intranet'];

function isInternalName(host: string): boolean {
  return INTERNAL_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/**
 * Special-use names (RFC 6761, RFC 7686) that never resolve on the public
 * internet: a URL naming them can only fail, or reach something it must not.
 */
const SPECIAL_USE_SUFFIXES = ['test', 'invalid', 'example', 'onion'];

function isSpecialUseName(host: string): boolean {
  return SPECIAL_USE_SUFFIXES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

const isLocalhostName = (host: string): boolean => host === 'localhost' || host.endsWith('.localhost');

function parseAbsolute(raw: string): URL | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) return null;
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

function checkCloud(url: URL, host: string): string | null {
  if (url.protocol !== 'https:') return `only https URLs are allowed, not ${url.protocol.replace(/:$/, '')}`;
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not allowed; send them in headers';
  if (isIpLiteral(host)) {
    return classifyAddress(host) === 'public' ? null : `the host is ${describeRefusedAddress(host, 'cloud')}`;
  }
  if (!host.includes('.')) return `"${host}" is not a fully qualified public host name`;
  if (isInternalName(host)) return `"${host}" is an internal host name`;
  if (isSpecialUseName(host)) return `"${host}" is a special-use name (RFC 6761) that no public host has`;
  return null;
}

function checkLocal(url: URL, host: string, reservedPorts: readonly number[]): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return `only http and https URLs are allowed, not ${url.protocol.replace(/:$/, '')}`;
  }
  if (url.username !== '' || url.password !== '') return 'credentials in the URL are not allowed; send them in headers';
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  // Its own storage stand-in serves every account's files unsigned; its API and database are no job's business either.
  if (reservedPorts.includes(port)) return `port ${port} is the local runtime's own (its API, storage or database), which a job may not reach`;
  if (isIpLiteral(host)) return isAllowedAddress(host, 'local') ? null : `the host is ${describeRefusedAddress(host, 'local')}`;
  if (isLocalhostName(host)) return null;
  return `"${host}" is not a loopback host; the local runtime reaches loopback addresses (127.0.0.1, ::1, localhost) only`;
}

/** Whether the service may request this URL in this network mode (locally: not on the runtime's own ports), and if not, why. */
export function checkUrl(raw: string, mode: NetworkMode, reservedPorts: readonly number[] = []): UrlCheck {
  const url = parseAbsolute(raw);
  if (!url) return { ok: false, reason: 'not an absolute URL' };
  // A trailing dot names the same host; without this `localhost.` would slip past.
  const host = url.hostname.toLowerCase().replace(/\.+$/, '');
  const webScheme = url.protocol === 'http:' || url.protocol === 'https:';
  if (host === '' && webScheme) return { ok: false, reason: 'the URL has no host' };
  const reason = mode === 'cloud' ? checkCloud(url, host) : checkLocal(url, host, reservedPorts);
  return reason === null ? { ok: true, url } : { ok: false, reason };
}
