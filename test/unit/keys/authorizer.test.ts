import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIGatewayTokenAuthorizerEvent } from 'aws-lambda';
import { startTestServices, type TestServices } from '../../support/test-services';
import { setServices } from '../../../lambdas/platform/services';
import { apiWildcardArn, bearerSecret, handler } from '../../../lambdas/api/authorizer';
import { generateSecret, issueKey, registerKey, revokeKey } from '../../../lambdas/domain/keys';

const METHOD_ARN = 'arn:aws:execute-api:eu-west-1:123456789012:abc123defg/prod/POST/jobs/preflight';
const event = (authorizationToken: string): APIGatewayTokenAuthorizerEvent => ({ type: 'TOKEN', authorizationToken, methodArn: METHOD_ARN });

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices({ config: { devApiKey: 'local-dev-key' } });
  setServices(t.services);
});
afterAll(async () => {
  setServices(undefined);
  await t?.stop();
});

describe('the token authoriser', () => {
  it('allows a valid key on every route of the API and passes the caller on as context', async () => {
    const issued = await issueKey(t.services.keys, t.services.ids, t.services.clock, { accountId: 'shop', role: 'admin' });
    const result = await handler(event(`Bearer ${issued.key}`));
    expect(result).toEqual({
      principalId: issued.id,
      policyDocument: {
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: 'arn:aws:execute-api:eu-west-1:123456789012:abc123defg/prod/*' }],
      },
      context: { accountId: 'shop', keyId: issued.id, role: 'admin' },
    });
  });

  it('reads the scheme case-insensitively and tolerates surrounding spaces', async () => {
    const issued = await issueKey(t.services.keys, t.services.ids, t.services.clock, { accountId: 'shop' });
    await expect(handler(event(`  bearer   ${issued.key} `))).resolves.toMatchObject({ principalId: issued.id });
  });

  it('answers Unauthorized for a missing, malformed, mistyped or unknown key', async () => {
    const issued = await issueKey(t.services.keys, t.services.ids, t.services.clock, { accountId: 'shop' });
    const typo = issued.key.slice(0, -2) + (issued.key.endsWith('00') ? '11' : '00');
    for (const token of ['', 'Bearer', 'Bearer ', issued.key, `Basic ${issued.key}`, `Bearer ${issued.key} extra`, `Bearer ${typo}`, `Bearer ${generateSecret('live')}`]) {
      await expect(handler(event(token)), token).rejects.toThrow(/^Unauthorized$/);
    }
    await expect(handler({ type: 'TOKEN', methodArn: METHOD_ARN } as unknown as APIGatewayTokenAuthorizerEvent)).rejects.toThrow('Unauthorized');
  });

  it('answers Unauthorized once a key is revoked', async () => {
    const issued = await issueKey(t.services.keys, t.services.ids, t.services.clock, { accountId: 'shop' });
    await expect(handler(event(`Bearer ${issued.key}`))).resolves.toBeTruthy();
    await revokeKey(t.services.keys, t.services.clock, issued.id);
    await expect(handler(event(`Bearer ${issued.key}`))).rejects.toThrow('Unauthorized');
  });

  it('accepts the configured DEV_API_KEY although it has no checksum', async () => {
    const dev = await registerKey(t.services.keys, t.services.ids, t.services.clock, { secret: 'local-dev-key', accountId: 'local' });
    await expect(handler(event('Bearer local-dev-key'))).resolves.toMatchObject({ principalId: dev.id, context: { accountId: 'local' } });
  });

  it('lets a store failure surface as itself, not as a bad key', async () => {
    const failing = { ...t.services, keys: { ...t.services.keys, findByHash: async () => { throw new Error('table unavailable'); } } };
    setServices(failing);
    try {
      await expect(handler(event(`Bearer ${generateSecret('live')}`))).rejects.toThrow('table unavailable');
    } finally {
      setServices(t.services);
    }
  });
});

describe('authoriser helpers', () => {
  it('extract the secret of a Bearer header', () => {
    expect(bearerSecret('Bearer abc')).toBe('abc');
    expect(bearerSecret('BEARER abc')).toBe('abc');
    expect(bearerSecret('Bearer a b')).toBeNull();
    expect(bearerSecret(undefined)).toBeNull();
  });

  it('widen a method ARN to the whole stage', () => {
    expect(apiWildcardArn(METHOD_ARN)).toBe('arn:aws:execute-api:eu-west-1:123456789012:abc123defg/prod/*');
    expect(apiWildcardArn('arn:aws:execute-api:eu-west-1:1:api/$default/GET/')).toBe('arn:aws:execute-api:eu-west-1:1:api/$default/*');
    expect(apiWildcardArn('local')).toBe('local/*');
  });
});
