import { describe, expect, it } from 'vitest';
import { classifyAddress, isAllowedAddress, isIpLiteral, type AddressClass } from '../../../lambdas/platform/net/address-policy';

const cases: [string, AddressClass][] = [
  // IPv4
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['52.95.110.1', 'public'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['10.0.0.1', 'private'],
  ['172.16.5.4', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.1.1', 'private'],
  ['100.64.0.1', 'private'],
  ['100.127.255.255', 'private'],
  ['169.254.1.1', 'link-local'],
  ['169.254.169.254', 'metadata'],
  ['169.254.170.2', 'metadata'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.10', 'reserved'],
  ['198.18.0.1', 'reserved'],
  // IPv6
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:82b::200e', 'public'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fd00:ec2::254', 'metadata'],
  ['FD00:EC2:0:0:0:0:0:254', 'metadata'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  // IPv4 inside IPv6 is judged by the IPv4 address it reaches
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['[::ffff:7f00:1]', 'loopback'],
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:8.8.8.8', 'public'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['64:ff9b:1::1', 'private'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:a00:1::', 'private'],
  ['::127.0.0.1', 'reserved'],
];

describe('classifyAddress', () => {
  it.each(cases)('classifies %s as %s', (ip, expected) => {
    expect(classifyAddress(ip)).toBe(expected);
  });

  it('treats anything that is not a strict IP literal as reserved', () => {
    for (const value of ['', 'localhost', 'example.com', '127.1', '0x7f.0.0.1', '2130706433', '999.1.1.1', ':::1']) {
      expect(classifyAddress(value)).toBe('reserved');
    }
  });
});

describe('isAllowedAddress', () => {
  it('allows only public addresses in the cloud', () => {
    expect(isAllowedAddress('8.8.8.8', 'cloud')).toBe(true);
    expect(isAllowedAddress('2606:4700:4700::1111', 'cloud')).toBe(true);
    for (const ip of ['127.0.0.1', '::1', '10.1.2.3', '100.64.1.1', '169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '::ffff:127.0.0.1', '64:ff9b::a9fe:a9fe', 'fe80::1', '224.0.0.1']) {
      expect(isAllowedAddress(ip, 'cloud'), ip).toBe(false);
    }
  });

  it('allows only loopback addresses in the local runtime', () => {
    for (const ip of ['127.0.0.1', '127.0.0.53', '::1', '::ffff:127.0.0.1']) expect(isAllowedAddress(ip, 'local'), ip).toBe(true);
    for (const ip of ['8.8.8.8', '10.0.0.1', '192.168.0.10', '169.254.169.254', '0.0.0.0', '::', 'fe80::1']) {
      expect(isAllowedAddress(ip, 'local'), ip).toBe(false);
    }
  });
});

describe('isIpLiteral', () => {
  it('recognises IPv4 and IPv6 literals, bracketed or with a zone, and nothing else', () => {
    expect(isIpLiteral('10.0.0.1')).toBe(true);
    expect(isIpLiteral('[::1]')).toBe(true);
    expect(isIpLiteral('fe80::1%lo0')).toBe(true);
    expect(isIpLiteral('example.com')).toBe(false);
    expect(isIpLiteral('localhost')).toBe(false);
  });
});
