/**
 * What went wrong with an upload, said to shop staff: the connection broke, or storage refused
 * the form (S3's XML <Error>, from the bucket or the local storage gateway). Free of DOM types, so
 * the unit tests run it under Node.
 */

export const NETWORK_ERROR = 'Network error: the upload was interrupted before storage confirmed it. Check your connection and retry.';

/** S3's refusal as a sentence: its message, and its code for support. */
export function storageRefusal(status: number, body: string): string {
  const code = /<Code>([^<]*)<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(body)?.[1];
  if (code === 'EntityTooLarge') return 'Too large: storage refused the file, it is larger than the upload allows.';
  if (code === 'AccessDenied' && /expired/i.test(message ?? '')) return 'The upload form expired before the file was sent. Retry.';
  return `Storage refused the file (${code ?? `HTTP ${status}`})${message ? `: ${message}` : '.'}`;
}
