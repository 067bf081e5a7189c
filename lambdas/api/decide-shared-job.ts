/**
 * POST /share/decision (docs/api.md §3, Share links): public, no API key; the share link's
 * token in the Share-Token header. The customer approves or requests changes,
 * once per job; 200 with the proof page's view, now carrying the approval.
 */
import '../platform/polyfills';
import middy from '@middy/core';
import { presentSharedJob } from '../domain/present/shared-job';
import { decideSharedJob } from '../domain/use-cases/decide-shared-job';
import { services } from '../platform/services';
import { appendCorrelationKeys, logger } from '../observability/logger';
import { json, type ApiEvent, type ApiResult } from './middleware/http';
import { shareMiddleware } from './middleware/share-middleware';
import { parseRequest } from './schemas/parse-request';
import { decisionBody, shareTokenOf } from './schemas/share-body';

async function decideSharedJobHandler(event: ApiEvent): Promise<ApiResult> {
  const svc = services();
  const body = parseRequest(decisionBody, event.jsonBody);
  const { graph, claims } = await decideSharedJob(svc, shareTokenOf(event), { decision: body.decision, note: body.note ?? null });
  appendCorrelationKeys({ accountId: graph.job.accountId, jobId: graph.job.id });
  logger.info({ message: 'share decision recorded', decision: body.decision });
  return json(200, await presentSharedJob(graph, claims, { blobs: svc.blobs, expiresIn: svc.config.downloadUrlExpiresSeconds }));
}

export const handler = middy<ApiEvent, ApiResult>(decideSharedJobHandler).use(shareMiddleware({ post: true }));
