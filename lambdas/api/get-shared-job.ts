/**
 * GET /share (docs/api.md §3, Share links): public, no API key. The proof page sends its
 * link's token in the Share-Token header and gets the read-only view of that
 * one job; a tampered, expired or revoked token gets a 4xx naming which.
 */
import '../platform/polyfills';
import middy from '@middy/core';
import { presentSharedJob } from '../domain/present/shared-job';
import { openSharedJob } from '../domain/use-cases/open-shared-job';
import { services } from '../platform/services';
import { appendCorrelationKeys } from '../observability/logger';
import { json, type ApiEvent, type ApiResult } from './middleware/http';
import { shareMiddleware } from './middleware/share-middleware';
import { shareTokenOf } from './schemas/share-body';

async function getSharedJobHandler(event: ApiEvent): Promise<ApiResult> {
  const svc = services();
  const { graph, claims } = await openSharedJob(svc, shareTokenOf(event));
  appendCorrelationKeys({ accountId: graph.job.accountId, jobId: graph.job.id });
  return json(200, await presentSharedJob(graph, claims, { blobs: svc.blobs, expiresIn: svc.config.downloadUrlExpiresSeconds }));
}

export const handler = middy<ApiEvent, ApiResult>(getSharedJobHandler).use(shareMiddleware());
