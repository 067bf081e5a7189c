/** POST /uploads (docs/api.md §3): what the client is about to upload. */
import { z } from 'zod';

export const MAX_UPLOAD_BYTES = 524_288_000;

/** `type/subtype` with optional parameters, as RFC 6838 allows. */
const MIME_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}(\s*;.*)?$/i;

export const uploadBody = z
  .strictObject({
    mimeType: z
      .string()
      .max(255)
      .regex(MIME_TYPE, 'must be a MIME type like application/pdf')
      .meta({ description: 'The Content-Type the upload must carry. The file type is detected from its bytes later.' }),
    sizeBytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_UPLOAD_BYTES)
      .meta({ description: 'The exact or maximum size of the file; storage refuses a larger file.' }),
  });

export type UploadBody = z.infer<typeof uploadBody>;
