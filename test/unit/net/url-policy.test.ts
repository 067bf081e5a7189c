import { describe, expect, it } from 'vitest';
import { checkUrl } from '../../../lambdas/platform/net/url-policy';

const refused = (raw: string, mode: 'cloud' | 'local'): string => {
  const r = checkUrl(raw, mode);
  if (r.ok) throw new Error(`${raw} was allowed in ${mode} mode`);
  return r.reason;
};

describe('checkUrl in the cloud', () => {
  it('accepts an https URL to a public host name or address', () => {
    for (const raw of ['https://example.com/a.pdf', 'https://files.example.co.uk:8443/x?y=1', 'https://8.8.8.8/', 'https://[2606:4700:4700::1111]/']) {
      const r = checkUrl(raw, 'cloud');
      expect(r.ok, raw).toBe(true);
      if (r.ok) expect(r.url).toBeInstanceOf(URL);
    }
  });

  it('refuses what is not an absolute URL', () => {
    for (const raw of ['', 'example.com/a.pdf', '/a.pdf', '//example.com/a', 'https://', 'not a url']) {
      expect(refused(raw, 'cloud'), raw).toBe('not an absolute URL');
    }
  });

  it('refuses schemes other than https', () => {
    for (const raw of ['http://example.com/', 'ftp://example.com/', 'file:///etc/passwd', 'data:text/plain,hi', 'gopher://example.com/']) {
      expect(refused(raw, 'cloud')).toMatch(/only https/);
    }
  });

  it('refuses credentials in the URL', () => {
    expect(refused('https://user:pass@example.com/', 'cloud')).toMatch(/credentials/);
    expect(refused('https://user@example.com/', 'cloud')).toMatch(/credentials/);
  });

  it('refuses literal addresses that are not public, however they are spelled', () => {
    for (const raw of [
      'https://127.0.0.1/',
      'https://2130706433/',
      'https://0x7f.1/',
      'https://10.0.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:169.254.169.254]/',
      'https://[fd00:ec2::254]/',
      'https://[fe80::1]/',
      'https://0.0.0.0/',
      'https://100.64.0.1/',
    ]) {
      expect(refused(raw, 'cloud'), raw).toMatch(/address/);
    }
  });

  it('refuses local and internal host names', () => {
    for (const raw of [
      'https://localhost/',
      'https://LOCALHOST./',
      'https://app.localhost/',
      'https://metadata.google.internal/',
      'https://ip-10-0-0-1.ec2.internal/',
      'https://printer.local/',
      'https://intranet/',
      'https://router.home.arpa/',
    ]) {
      expect(refused(raw, 'cloud'), raw).toMatch(/host name/);
    }
  });

  it('refuses special-use names that no public host has (RFC 6761, RFC 7686), but not names that merely contain them', () => {
    for (const raw of ['https://hook.invalid/', 'https://shop.test/cb', 'https://a.b.example/', 'https://x.onion/', 'https://HOOK.TEST./']) {
      expect(refused(raw, 'cloud'), raw).toMatch(/special-use name/);
    }
    for (const raw of ['https://test.com/', 'https://invalid.example.com/', 'https://hooks.contest.io/']) {
      expect(checkUrl(raw, 'cloud').ok, raw).toBe(true);
    }
  });
});

describe('checkUrl in the local runtime', () => {
  it('accepts http and https to loopback hosts', () => {
    for (const raw of ['http://127.0.0.1:3000/hook', 'https://127.0.0.1/', 'http://127.8.9.10/', 'http://[::1]:8080/', 'http://localhost:4000/', 'http://api.localhost/']) {
      expect(checkUrl(raw, 'local').ok, raw).toBe(true);
    }
  });

  it('refuses hosts that are not loopback', () => {
    for (const raw of ['http://example.com/', 'http://10.0.0.1/', 'http://169.254.169.254/', 'http://0.0.0.0/', 'http://[fe80::1]/', 'http://192.168.1.20:3000/']) {
      expect(refused(raw, 'local'), raw).toMatch(/loopback/);
    }
  });

  it('refuses the runtime’s own ports, spelled or implied, and accepts the others', () => {
    const own = [3000, 3001, 45123, 80];
    for (const raw of ['http://127.0.0.1:3001/proofline-files/acct/jobs/x', 'http://localhost:3000/health', 'http://[::1]:45123/', 'http://127.0.0.1/', 'http://127.0.0.1:80/']) {
      const r = checkUrl(raw, 'local', own);
      expect(r.ok, raw).toBe(false);
      if (!r.ok) expect(r.reason).toMatch(/local runtime's own/);
    }
    expect(checkUrl('https://127.0.0.1/', 'local', own).ok).toBe(true);
    expect(checkUrl('http://127.0.0.1:3002/', 'local', own).ok).toBe(true);
  });

  it('refuses credentials in the URL, as in the cloud', () => {
    expect(refused('http://user:pw@127.0.0.1:4000/hook', 'local')).toMatch(/credentials/);
    expect(refused('http://user@localhost:4000/', 'local')).toMatch(/credentials/);
  });

  it('refuses schemes other than http and https', () => {
    expect(refused('ftp://127.0.0.1/', 'local')).toMatch(/only http and https/);
    expect(refused('file:///etc/passwd', 'local')).toMatch(/only http and https/);
  });
});
