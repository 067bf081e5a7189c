/** POST /uploads (docs/api.md §3): what the client is about to upload. */
import { z } from 'zod';
import { mimeType } from './common';

export const MAX_UPLOAD_BYTES = 524_288_000;

/** The upload's Content-Type when the client does not know it (docs/api.md §11 rule 7). */
export const UNKNOWN_UPLOAD_TYPE = 'application/octet-stream';

export const uploadBody = z
  .strictObject({
    mimeType: mimeType.default(UNKNOWN_UPLOAD_TYPE).meta({
      description:
        'The Content-Type the upload must carry (it is among the returned form fields). Optional: without it the upload is `application/octet-stream`; the file type is detected from its bytes later either way.',
    }),
    sizeBytes: z
      .number()
      .int()
      .min(1)
      .max(MAX_UPLOAD_BYTES)
      .meta({ description: 'The exact or maximum size of the file; storage refuses a larger file.' }),
  });

export type UploadBody = z.infer<typeof uploadBody>;
