/** POST /uploads (docs/api.md §3): a presigned POST for one file of at most `sizeBytes`; 200 `{ fileRef, upload, maxBytes, expiresIn }`. */
import '../platform/polyfills';
import middy from '@middy/core';
import { createUpload } from '../domain/use-cases/create-upload';
import { services } from '../platform/services';
import { apiMiddleware } from './middleware/api-middleware';
import { parseRequest } from './schemas/parse-request';
import { callerOf, json, type ApiEvent, type ApiResult } from './middleware/http';
import { uploadBody } from './schemas/upload-body';

async function createUploadHandler(event: ApiEvent): Promise<ApiResult> {
  const body = parseRequest(uploadBody, event.jsonBody);
  const svc = services();
  const created = await createUpload({ ...svc, uploadExpiresSeconds: svc.config.uploadExpiresSeconds }, callerOf(event), body);
  return json(200, created);
}

export const handler = middy<ApiEvent, ApiResult>(createUploadHandler).use(apiMiddleware({ post: true }));
