/** GET /health (docs/api.md §3, §10): public; 200 `{ status: "ok" }` once the process serves requests. */
import '../platform/polyfills';
import middy from '@middy/core';
import { publicMiddleware } from './middleware/public-middleware';
import { json, type ApiEvent, type ApiResult } from './middleware/http';

async function health(): Promise<ApiResult> {
  return json(200, { status: 'ok' });
}

export const handler = middy<ApiEvent, ApiResult>(health).use(publicMiddleware());
