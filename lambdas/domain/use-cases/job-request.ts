/**
 * What a job-creating request asks for, independent of the endpoint it came
 * through: POST /jobs and the convenience endpoints (preflight, fix, validate,
 * previews) all translate their bodies into this, and create-job builds the
 * job from it.
 */
import type { Channel, JobEndpoint, OnFail, OrderContext, StepType, WebhookTarget } from '../model';

export type SourceInput =
  | { kind: 'url'; url: string; headers?: Record<string, string> }
  /** A base64 `file`, already decoded. */
  | { kind: 'file'; bytes: Uint8Array }
  | { kind: 'fileRef'; uploadId: string };

export interface StepRequest {
  type: StepType;
  /** As the client gave them; defaults are applied by the step when it runs. */
  params: Record<string, unknown>;
  /**
   * Where the request named `params.profileId`, relative to its source, for the error's `param`
   * when no such profile exists: `profileId` on the convenience endpoints; default
   * `steps[<i>].params.profileId` (POST /jobs).
   */
  profileParam?: string;
}

export interface SourceRequest {
  input: SourceInput;
  name: string | null;
  clientRef: string | null;
  /** The client's MIME type hint; the task shows it until ingest detects the type from the bytes. */
  mimeType: string | null;
  steps: StepRequest[];
}

export interface JobRequest {
  endpoint: JobEndpoint;
  sources: SourceRequest[];
  webhook: WebhookTarget | null;
  metaData: Record<string, unknown> | null;
  ruleId: string | null;
  channel: Channel;
  customerId: string | null;
  orderId: string | null;
  customerEmail: string | null;
  policy: { onFail: OnFail };
  context: OrderContext | null;
}

/** The fields only POST /jobs sets; the convenience endpoints use these. */
export const JOB_REQUEST_DEFAULTS: Pick<
  JobRequest,
  'ruleId' | 'channel' | 'customerId' | 'orderId' | 'customerEmail' | 'policy' | 'context'
> = {
  ruleId: null,
  channel: 'api',
  customerId: null,
  orderId: null,
  customerEmail: null,
  policy: { onFail: 'reject' },
  context: null,
};
