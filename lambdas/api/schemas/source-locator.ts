/**
 * How a source's file is located (docs/api.md §3): exactly one of `url` (with
 * optional `headers`), `file` (base64 content) or `fileRef` (an upload), plus
 * the optional `name`, `clientRef` and `mimeType` every endpoint's source carries; and the
 * translation of those fields into the domain's SourceInput.
 */
import { z } from 'zod';
import { isId } from '../../domain/ids';
import type { SourceInput } from '../../domain/use-cases/job-request';
import { absoluteUrl, CONTROL_CHARACTERS, httpHeaders, LONE_SURROGATE, mimeType } from './common';

/**
 * Standard or URL-safe base64, padding optional, whitespace (MIME line breaks)
 * ignored; a `data:…;base64,` prefix is accepted too, as browsers produce it.
 */
const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;
const BASE64_BODY = /^[A-Za-z0-9+/_-]*={0,2}$/;

export function base64Payload(value: string): string {
  return value.replace(DATA_URL_PREFIX, '').replace(/\s+/g, '');
}

export function isBase64(value: string): boolean {
  const body = base64Payload(value);
  return body.length > 0 && BASE64_BODY.test(body) && body.replace(/=+$/, '').length % 4 !== 1;
}

export function decodeBase64(value: string): Uint8Array {
  const body = base64Payload(value).replace(/-/g, '+').replace(/_/g, '/');
  return new Uint8Array(Buffer.from(body, 'base64'));
}

export const base64File = z
  .string()
  .refine(isBase64, 'must be base64-encoded file content')
  .meta({ description: 'The file content, base64-encoded. For files over a few MB use POST /uploads and `fileRef`.' });

export const fileRef = z
  .string()
  .refine((v) => isId('upload', v), 'must be an upload id (upload_…) returned by POST /uploads')
  .meta({ description: 'An upload id returned by POST /uploads, once its file is uploaded.' });

export const sourceName = z
  .string()
  .min(1)
  .max(255)
  .refine((v) => !CONTROL_CHARACTERS.test(v), 'must not contain control characters')
  .refine((v) => !LONE_SURROGATE.test(v), 'must be valid Unicode text (it has half of a surrogate pair)')
  .meta({ description: 'The file name (used for downloads).' });
export const clientRef = z.string().max(255).meta({ description: 'Your reference for this file, echoed on its task.' });
export const sourceMimeType = mimeType.meta({
  description: "The file's MIME type, if you know it: a hint shown on the task until the file is read; the file type is detected from its bytes.",
});

/** The locator fields, spread into each endpoint's closed source object. */
export const locatorFields = {
  url: absoluteUrl.optional().meta({ description: 'Where to download the file (https).' }),
  file: base64File.optional(),
  fileRef: fileRef.optional(),
  headers: httpHeaders.optional(),
  name: sourceName.nullish(),
  clientRef: clientRef.nullish(),
  mimeType: sourceMimeType.nullish(),
};

interface LocatorInput {
  url?: string | undefined;
  file?: string | undefined;
  fileRef?: string | undefined;
  headers?: Record<string, string> | undefined;
}

/** Exactly one of url, file, fileRef; headers only with a URL. */
export function checkLocator(source: LocatorInput, ctx: z.RefinementCtx): void {
  const given = [source.url, source.file, source.fileRef].filter((v) => v !== undefined).length;
  if (given !== 1) ctx.addIssue({ code: 'custom', message: 'exactly one of url, file, fileRef', path: [] });
  if (source.headers !== undefined && source.url === undefined) {
    ctx.addIssue({ code: 'custom', message: 'headers are only allowed with url', path: ['headers'] });
  }
}


export interface LocatedSource extends LocatorInput {
  name?: string | null | undefined;
  clientRef?: string | null | undefined;
  mimeType?: string | null | undefined;
}

/** The parsed locator as the domain takes it; call only on input checkLocator accepted. */
export function sourceInputOf(source: LocatedSource): SourceInput {
  if (source.url !== undefined) return { kind: 'url', url: source.url, ...(source.headers ? { headers: source.headers } : {}) };
  if (source.file !== undefined) return { kind: 'file', bytes: decodeBase64(source.file) };
  return { kind: 'fileRef', uploadId: source.fileRef! };
}
