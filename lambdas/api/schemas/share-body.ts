/**
 * The share-link routes' input (docs/api.md §3, Share links): POST /jobs/{id}/share's body,
 * POST /share/decision's body, and the Share-Token header the public routes
 * read the link's token from.
 */
import { z } from 'zod';
import { header, type ApiEvent } from '../middleware/http';

export const SHARE_DEFAULT_SECONDS = 7 * 24 * 3600;
export const SHARE_MAX_SECONDS = 30 * 24 * 3600;
/** Shorter links would expire before a customer could open them. */
export const SHARE_MIN_SECONDS = 60;

export const shareBody = z.strictObject({
  expiresInSeconds: z
    .number()
    .int()
    .min(SHARE_MIN_SECONDS)
    .max(SHARE_MAX_SECONDS)
    .default(SHARE_DEFAULT_SECONDS)
    .meta({ description: `How long the link works, in seconds: ${SHARE_MIN_SECONDS} to ${SHARE_MAX_SECONDS} (30 days); default ${SHARE_DEFAULT_SECONDS} (7 days).` }),
  allowDecision: z.boolean().default(false).meta({ description: 'Whether the customer may approve or request changes through the link.' }),
});

export const decisionBody = z.strictObject({
  decision: z.enum(['approved', 'changes_requested']),
  note: z.string().max(2000).nullish().meta({ description: 'What the customer says; recorded with the decision and sent with its webhook.' }),
});

/**
 * The header the proof page sends the token in. Not Authorization: that is the
 * API key's header, and the token is never one.
 */
export const SHARE_TOKEN_HEADER = 'Share-Token';

export const shareTokenOf = (event: ApiEvent): string | undefined => header(event, SHARE_TOKEN_HEADER);
