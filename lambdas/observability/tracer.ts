/**
 * The one tracer (Powertools for AWS Lambda's Tracer, over AWS X-Ray). The
 * functions run with active tracing (lib/constructs/proofline-nodejs-function.ts),
 * so API Gateway, the state machines and every function are one trace; this
 * adds the handler's own segment (`captureLambdaHandler` in the API middleware,
 * `withInvocationLog` for workers) and a subsegment per AWS SDK call
 * (`traced`, where each client is created in lambdas/adapters/aws/).
 *
 * Outside Lambda it is off: Powertools turns tracing on only where
 * AWS_EXECUTION_ENV says Lambda runs the code, and POWERTOOLS_TRACE_ENABLED=false
 * turns it off there too. Then every call here is a no-op.
 *
 * What a trace may not hold, it is not given: no handler response is recorded
 * (a response carries presigned URLs and share tokens: `captureResponse: false`
 * wherever a handler is captured), and outgoing HTTP(S) requests are not
 * captured (their URLs are a customer's source or webhook URL, which may carry
 * a signature or token of theirs).
 */
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from './service-name';

export const tracer = new Tracer({
  serviceName: process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME,
  captureHTTPsRequests: false,
});

/** The same AWS SDK v3 client, its calls recorded as subsegments when tracing is on. */
export function traced<Client>(client: Client): Client {
  return tracer.captureAWSv3Client(client);
}

/** For captureLambdaHandler and the workers' segments: never a handler's response. */
export const HANDLER_TRACE_OPTIONS = { captureResponse: false } as const;
