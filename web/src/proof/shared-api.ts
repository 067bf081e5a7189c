/**
 * The proof page speaks to the two public share routes only (docs/api.md §3, Share links),
 * with the link's token in the Share-Token header: never an API key, and never
 * in a URL the server sees (the token lives in this page's fragment).
 */

import { ApiFailure, jsonRequest } from '../json-request';

/** What the share routes refuse with (an invalid, expired or withdrawn link…), in the contract's error shape. */
export { ApiFailure as ShareFailure };

// The view's shapes are the presenter's own (lambdas/domain/present/shared-job.ts), not restated.
import type { SharedJobView } from '../../../lambdas/domain/present/shared-job-view';
import type { Approval } from '../../../lambdas/domain/model';

export type { PercentRect, Severity, SharedFile, SharedFinding, SharedPage } from '../../../lambdas/domain/present/shared-job-view';
export type { Approval };
export type SharedJob = SharedJobView;

const send = <T>(method: 'GET' | 'POST', path: string, token: string, body?: unknown): Promise<T> =>
  jsonRequest<T>(method, path, { 'share-token': token }, body, { cache: 'no-store' });

export const loadSharedJob = (token: string): Promise<SharedJob> => send('GET', '/share', token);

export const decide = (token: string, decision: Approval['decision'], note: string): Promise<SharedJob> =>
  send('POST', '/share/decision', token, { decision, note: note.trim() === '' ? null : note.trim() });
