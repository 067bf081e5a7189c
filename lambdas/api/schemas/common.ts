/**
 * Request fields every job-creating endpoint shares (docs/api.md §3): HTTP headers,
 * URLs, the webhook, metaData, the list of sources. Bodies are closed
 * (`z.strictObject`): an unknown field is a 400 naming it. Whether a URL may be
 * fetched in this network mode is decided after parsing (api/url-rules.ts),
 * because it depends on the runtime configuration.
 */
import { z } from 'zod';
import type { WebhookTarget } from '../../domain/model';

/** RFC 9110 token: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** No CR, LF or NUL: a header value must not smuggle another header. */
const HEADER_VALUE = /^[^\r\n\0]*$/;
const MAX_HEADERS = 32;

export const httpHeaders = z
  .record(
    z.string().regex(HEADER_NAME, 'must be a valid HTTP header name'),
    z.string().max(8192).regex(HEADER_VALUE, 'must not contain line breaks'),
  )
  .refine((h) => Object.keys(h).length <= MAX_HEADERS, `at most ${MAX_HEADERS} headers`)
  .meta({ description: 'HTTP headers to send with the request (e.g. Authorization).' });

/** C0 controls and DEL: no file name or URL needs them, and in a URL a CR or LF is silently dropped by the parser, so what is checked is not what was sent. */
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

export { LONE_SURROGATE } from '../../domain/file-names';

export const absoluteUrl = z
  .string()
  .min(1)
  .max(4096)
  .refine((v) => !CONTROL_CHARACTERS.test(v), 'must not contain control characters such as CR, LF or tab (percent-encode them)');

/** `type/subtype` with optional parameters, as RFC 6838 allows. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/i;

export const mimeType = z.string().max(255).regex(MIME_TYPE, 'must be a MIME type like application/pdf');

export const MAX_SOURCES = 50;

export const webhook = z
  .union(
    [
      absoluteUrl,
      z.strictObject({
        url: absoluteUrl,
        headers: httpHeaders.optional(),
      }),
    ],
    { error: (issue) => (issue.input === undefined ? 'is required' : 'must be a URL string or { url, headers? }') },
  )
  .meta({ description: 'Called when the job is terminal (https; Standard Webhooks signature).' });

export const METADATA_MAX_BYTES = 16 * 1024;

export const metaData = z
  .record(z.string(), z.unknown())
  .refine(
    (v) => Buffer.byteLength(JSON.stringify(v), 'utf8') <= METADATA_MAX_BYTES,
    `must be at most ${METADATA_MAX_BYTES} bytes as JSON`,
  )
  .meta({ description: 'Any JSON object (at most 16 KB serialised), stored and echoed.' });

export const sync = z.boolean().meta({ description: 'Wait up to 27 s for the job to finish (200 when it did, else 202).' });

/** The flag of the endpoints that are sync by default (/jobs/validate, /jobs/optimize). */
export const asyncFlag = z.boolean().meta({ description: 'Answer 201 at once instead of waiting (this endpoint is sync by default).' });

/** Fields of every job-creating body. */
export const commonJobFields = {
  webhook: webhook.nullish(),
  metaData: metaData.nullish(),
};

export const sourcesOf = <T extends z.ZodType>(source: T) =>
  z.array(source).min(1).max(MAX_SOURCES).meta({ description: `The files, 1 to ${MAX_SOURCES}; one task each.` });

/** The webhook as the domain keeps it: a bare URL string becomes `{ url }`. */
export function webhookTargetOf(value: z.infer<typeof webhook> | null | undefined): WebhookTarget | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return { url: value };
  return value.headers ? { url: value.url, headers: value.headers } : { url: value.url };
}
