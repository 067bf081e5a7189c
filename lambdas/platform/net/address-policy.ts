/**
 * Which IP addresses outbound requests (source downloads, webhooks) may reach
 * (docs/api.md §9): in the cloud only public addresses, so a job cannot make the
 * service call its own VPC, the instance metadata endpoint or loopback; in the
 * local runtime only loopback, so a developer's machine does not reach out.
 *
 * Addresses that carry an IPv4 address inside IPv6 (IPv4-mapped, NAT64, 6to4)
 * are judged by the IPv4 address they lead to; anything we cannot place is
 * `reserved`, which is never allowed.
 */
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';
import type { NetworkMode } from '../config';

export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

/** Cloud metadata and credential endpoints (EC2 IMDS, ECS task metadata, EKS pod identity). */
const METADATA_ADDRESSES = new Set(
  ['169.254.169.254', '169.254.170.2', '169.254.170.23', 'fd00:ec2::254', 'fd00:ec2::23'].map((a) =>
    ipaddr.parse(a).toNormalizedString(),
  ),
);

const IPV4_CLASSES: Record<string, AddressClass> = {
  unicast: 'public',
  unspecified: 'unspecified',
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'private',
  private: 'private',
  reserved: 'reserved',
  as112: 'reserved',
  amt: 'reserved',
};

const IPV6_CLASSES: Record<string, AddressClass> = {
  unicast: 'public',
  unspecified: 'unspecified',
  linkLocal: 'link-local',
  multicast: 'multicast',
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
};

/** The literal without brackets or an IPv6 zone (`[fe80::1%eth0]` → `fe80::1`). */
function bare(ip: string): string {
  let s = ip.trim();
  if (s.startsWith('[') && s.endsWith(']')) s = s.slice(1, -1);
  const zone = s.indexOf('%');
  return zone >= 0 ? s.slice(0, zone) : s;
}

/**
 * `::a.b.c.d` → `::xxxx:yyyy`. ipaddr.js reads every IPv6 literal ending in a
 * dotted quad as IPv4-mapped (`::127.0.0.1` as `::ffff:127.0.0.1`); spelling the
 * quad in hex first gives the address the text actually names.
 */
function hexQuad(ipv6: string): string {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(ipv6);
  if (!m) return ipv6;
  const [a, b, c, d] = [m[2], m[3], m[4], m[5]].map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

const ipv4FromBytes = (b: number[]): ipaddr.IPv4 => new ipaddr.IPv4([b[0]!, b[1]!, b[2]!, b[3]!]);

function classifyV4(addr: ipaddr.IPv4): AddressClass {
  if (METADATA_ADDRESSES.has(addr.toNormalizedString())) return 'metadata';
  return IPV4_CLASSES[addr.range()] ?? 'reserved';
}

function classifyV6(addr: ipaddr.IPv6): AddressClass {
  if (METADATA_ADDRESSES.has(addr.toNormalizedString())) return 'metadata';
  const bytes = addr.toByteArray();
  const range = addr.range();
  switch (range) {
    // ::ffff:a.b.c.d and ::ffff:0:a.b.c.d reach the embedded IPv4 address.
    case 'ipv4Mapped':
    case 'rfc6145':
      return classifyV4(ipv4FromBytes(bytes.slice(12)));
    case 'rfc6052': {
      // 64:ff9b::/96 is NAT64 to the embedded address; 64:ff9b:1::/48 is for local networks.
      const wellKnown = bytes.slice(4, 12).every((b) => b === 0);
      return wellKnown ? classifyV4(ipv4FromBytes(bytes.slice(12))) : 'private';
    }
    case '6to4':
      return classifyV4(ipv4FromBytes(bytes.slice(2, 6)));
  }
  // ::a.b.c.d (deprecated IPv4-compatible) is nothing a public host uses.
  if (range === 'unicast' && bytes.slice(0, 12).every((b) => b === 0)) return 'reserved';
  return IPV6_CLASSES[range] ?? 'reserved';
}

/** True when the string is an IPv4 or IPv6 literal (brackets and zone allowed). */
export function isIpLiteral(value: string): boolean {
  return isIP(bare(value)) !== 0;
}

/**
 * The class of an IP literal. Only strict literals are read (no `127.1` or
 * `0x7f.1` shorthands; URL parsing has already normalised those); anything
 * else is `reserved`.
 */
export function classifyAddress(ip: string): AddressClass {
  const s = bare(String(ip));
  const family = isIP(s);
  if (family === 0) return 'reserved';
  try {
    return family === 4 ? classifyV4(ipaddr.IPv4.parse(s)) : classifyV6(ipaddr.IPv6.parse(hexQuad(s)));
  } catch {
    return 'reserved';
  }
}

/** Cloud: public addresses only. Local: loopback only. */
export function isAllowedAddress(ip: string, mode: NetworkMode): boolean {
  const cls = classifyAddress(ip);
  return mode === 'cloud' ? cls === 'public' : cls === 'loopback';
}

/** The address and why it is refused (`10.0.0.1 (a private address); …`), for error messages. */
export function describeRefusedAddress(ip: string, mode: NetworkMode): string {
  const cls = classifyAddress(ip);
  return mode === 'cloud'
    ? `${bare(ip)} (a ${cls} address); only public addresses may be reached`
    : `${bare(ip)} (not a loopback address); the local runtime reaches loopback addresses only`;
}
