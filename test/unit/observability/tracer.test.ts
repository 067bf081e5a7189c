import { describe, expect, it } from 'vitest';
import { S3Client } from '@aws-sdk/client-s3';
import { traced, tracer } from '../../../lambdas/observability/tracer';

describe('the tracer outside Lambda (tests, the local runtime)', () => {
  it('is off: Powertools turns tracing on only where AWS_EXECUTION_ENV says Lambda runs the code', () => {
    expect(process.env.AWS_EXECUTION_ENV).toBeUndefined();
    expect(tracer.isTracingEnabled()).toBe(false);
  });

  it('leaves an AWS SDK client as it is: no X-Ray middleware, nothing recorded', () => {
    const client = new S3Client({ region: 'us-east-1' });
    const before = client.middlewareStack.identify();
    expect(traced(client)).toBe(client);
    expect(client.middlewareStack.identify()).toEqual(before);
  });
});
