/**
 * The messages of the answers the gateway gives before any route handler runs
 * (no key, body too large, the authoriser broken). API Gateway's Gateway
 * Responses (lib/constructs/gateway-responses.ts), the local runtime's front
 * door (local/http-server.ts) and the caller middleware all say the same words.
 * Codes without an entry here use their title in ERROR_CODES.
 */
export const GATEWAY_MESSAGES = {
  unauthorized: 'A valid secret key is required: send the header Authorization: Bearer <secret key>.',
  payloadTooLarge: 'The request body is too large. Upload files with POST /uploads and pass the returned fileRef as the source.',
  keyCheckFailed: 'The key could not be checked. Retry shortly.',
} as const;
