/** lib/constructs/console-headers-policy.ts: the console's headers in the shape CloudFront takes them. */
import { describe, expect, it } from 'vitest';
import { cloudFrontHeaders } from '../../lib/constructs/console-headers-policy';
import { consoleSecurityHeaders } from '../../web/build-console';

describe('the console headers for CloudFront', () => {
  it('put every header the console is served with into its security-header field, none lost', () => {
    const headers = consoleSecurityHeaders('https://files.s3.eu-west-1.amazonaws.com');
    const { securityHeadersBehavior, customHeaders } = cloudFrontHeaders(headers);
    expect(securityHeadersBehavior).toEqual({
      contentSecurityPolicy: { contentSecurityPolicy: headers['content-security-policy'], override: true },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: 'DENY', override: true },
      referrerPolicy: { referrerPolicy: 'no-referrer', override: true },
    });
    expect(customHeaders).toEqual([]);
  });

  it('send any other header as a custom header', () => {
    expect(cloudFrontHeaders({ 'permissions-policy': 'camera=()' }).customHeaders).toEqual([{ header: 'permissions-policy', value: 'camera=()', override: true }]);
  });

  it.each([
    ['x-content-type-options', 'sniff'],
    ['x-frame-options', 'ALLOW-FROM https://a.example'],
    ['referrer-policy', 'everywhere'],
    ['strict-transport-security', 'max-age=1'],
  ])('refuse %s: %s, which CloudFront cannot send as given', (name, value) => {
    expect(() => cloudFrontHeaders({ [name]: value })).toThrow(`CloudFront cannot send the console header ${name}: ${value}`);
  });
});
