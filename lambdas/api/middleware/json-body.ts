/**
 * Reads the body of a POST or PUT as JSON (docs/api.md §3, §7): the Content-Type must be
 * JSON (415 otherwise), the body must fit the configured limit (413, pointing
 * the client at POST /uploads, which takes files of any size) and parse (400
 * invalid_json), and carry nothing a parser or the store would read otherwise
 * than it was sent (400 validation_error naming the field: json-hazards.ts).
 * Bodies API Gateway passes base64-encoded are decoded first.
 */
import type { MiddlewareObj } from '@middy/core';
import { ApiError } from '../../domain/errors';
import { header, type ApiEvent, type ApiResult } from './http';
import { findJsonHazard } from './json-hazards';

/** application/json, with or without parameters (charset), and the `+json` family. */
const JSON_MEDIA_TYPE = /^application\/([a-z0-9.!#$%&'*^_`|~-]+\+)?json$/i;

export function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false;
  const mediaType = value.split(';')[0]!.trim();
  return JSON_MEDIA_TYPE.test(mediaType);
}

export function rawBody(event: ApiEvent): Buffer {
  if (event.body === null || event.body === undefined) return Buffer.alloc(0);
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
}

export function jsonBody(options: { maxBodyBytes: () => number }): MiddlewareObj<ApiEvent, ApiResult> {
  return {
    name: 'json-body',
    before: (request) => {
      const event = request.event;
      if (event.httpMethod !== 'POST' && event.httpMethod !== 'PUT') return;
      const bytes = rawBody(event);
      const limit = options.maxBodyBytes();
      // Size first: a client posting a large file as multipart learns where files go.
      if (bytes.length > limit) {
        throw new ApiError(
          'payload_too_large',
          `The body is ${bytes.length} bytes; the limit is ${limit} bytes. Upload files with POST /uploads and pass the returned fileRef instead of base64 file content.`,
        );
      }
      const contentType = header(event, 'content-type');
      if (!isJsonContentType(contentType)) {
        throw new ApiError(
          'unsupported_media_type',
          `The body must be JSON: send Content-Type: application/json${contentType ? ` (got "${contentType}")` : ''}.`,
        );
      }
      const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
      if (text.trim() === '') {
        event.jsonBody = undefined;
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        const detail = error instanceof SyntaxError ? `: ${error.message}` : '';
        throw new ApiError('invalid_json', `The body is not valid JSON${detail}.`);
      }
      const hazard = findJsonHazard(text);
      if (hazard) throw new ApiError('validation_error', `${hazard.param ?? 'request body'}: ${hazard.message}`, hazard.param);
      event.jsonBody = parsed;
    },
  };
}
