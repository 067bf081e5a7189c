import { describe, expect, it } from 'vitest';
import { REDACTED, redactLogValue, redactText } from '../../../lambdas/observability/redaction';
import { generateSecret, generateWebhookSecret } from '../../../lambdas/domain/keys/secret-format';

/** A value as the logger writes it: through the replacer, as JSON. */
const written = (value: unknown): string => JSON.stringify(value, redactLogValue);

describe('redaction of log values', () => {
  const apiKey = generateSecret('live');
  const webhookSecret = generateWebhookSecret();
  const shareToken = 'ps1.eyJqIjoiam9iXzAxaCJ9.c2lnbmF0dXJlLW9mLXRoZS1saW5r';
  const presigned =
    'https://proofline-files.s3.us-east-1.amazonaws.com/acct/jobs/job_1/out.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
    '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20261127%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261127T000000Z' +
    '&X-Amz-Expires=900&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEJr&X-Amz-Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7&X-Amz-SignedHeaders=host';

  it('takes API keys, webhook secrets and share tokens out of any text', () => {
    const text = redactText(`key ${apiKey}, secret ${webhookSecret}, link https://proof.example/proof#${shareToken}.`);
    expect(text).not.toContain(apiKey.slice(3));
    expect(text).not.toContain(webhookSecret.slice(6));
    expect(text).not.toContain(shareToken.slice(4));
    expect(text).toBe(`key sk_${REDACTED}, secret whsec_${REDACTED}, link https://proof.example/proof#ps1.${REDACTED}`);
  });

  it('takes the token out of an Authorization value, whatever the token looks like', () => {
    expect(redactText('Authorization: Bearer my-own-dev-key')).toBe(`Authorization: Bearer ${REDACTED}`);
  });

  it("keeps a presigned URL's object but not its signature, credential or session token", () => {
    const text = redactText(presigned);
    expect(text).toContain('proofline-files.s3.us-east-1.amazonaws.com/acct/jobs/job_1/out.pdf');
    expect(text).not.toContain('AKIAIOSFODNN7EXAMPLE');
    expect(text).not.toContain('5d672d79c15b');
    expect(text).not.toContain('IQoJb3JpZ2luX2VjEJr');
    expect(text).toContain(`X-Amz-Signature=${REDACTED}`);
    expect(text).toContain('X-Amz-Expires=900');
  });

  it('writes no value of a field named as a secret, at any depth and in any spelling', () => {
    const line = written({ headers: { Authorization: 'whatever', 'x-amz-signature': 'abc' }, webhook_secret: 'plain', account: { apiKey: 'k' } });
    expect(line).not.toMatch(/whatever|"abc"|plain|"k"/);
    expect(JSON.parse(line)).toEqual({ headers: { Authorization: REDACTED, 'x-amz-signature': REDACTED }, webhook_secret: REDACTED, account: { apiKey: REDACTED } });
  });

  it('writes bytes as their length, never their content', () => {
    const content = Buffer.from('%PDF-1.7 the customer file');
    expect(JSON.parse(written({ file: content, page: new Uint8Array(3) }))).toEqual({ file: '[26 bytes]', page: '[3 bytes]' });
  });

  it('leaves everything else as it is', () => {
    const ids = { jobId: 'job_01h00000000000000000000000', keyId: 'key_01h', resultKey: 'acct/jobs/job_1/result.json', durationMs: 12, ok: true };
    expect(JSON.parse(written(ids))).toEqual(ids);
  });
});
