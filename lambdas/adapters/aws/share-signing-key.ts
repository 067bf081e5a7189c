/**
 * Where the share-link key comes from (ShareKeySource). In the cloud: the
 * Secrets Manager secret the stack generates (SHARE_SIGNING_SECRET_ARN), read
 * once per container at the first link signed or checked, so the key is in no
 * template, no function configuration and no log. Locally and in tests:
 * SHARE_SIGNING_KEY, given directly. Neither: a clear error (500), never an
 * unsigned or guessable link.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { ShareKeySource } from '../../domain/ports';
import type { RuntimeConfig } from '../../platform/config';
import { traced } from '../../observability/tracer';

/** Shorter keys are refused: HMAC-SHA256 wants at least its output size of secret. */
export const MIN_SHARE_KEY_CHARS = 32;

function checked(key: string, from: string): Uint8Array {
  if (key.length < MIN_SHARE_KEY_CHARS) throw new Error(`The share-link key from ${from} is shorter than ${MIN_SHARE_KEY_CHARS} characters`);
  return Buffer.from(key, 'utf8');
}

export function createShareKeySource(
  config: Pick<RuntimeConfig, 'region' | 'shareSigningKey' | 'shareSigningSecretArn'>,
  client: () => SecretsManagerClient = () => traced(new SecretsManagerClient({ region: config.region })),
): ShareKeySource {
  let loading: Promise<Uint8Array> | undefined;
  async function fromSecret(arn: string): Promise<Uint8Array> {
    const out = await client().send(new GetSecretValueCommand({ SecretId: arn }));
    if (typeof out.SecretString !== 'string') throw new Error('The share-link secret has no string value');
    return checked(out.SecretString, 'Secrets Manager');
  }
  return {
    signingKey() {
      if (config.shareSigningKey !== undefined) return Promise.resolve(checked(config.shareSigningKey, 'SHARE_SIGNING_KEY'));
      const arn = config.shareSigningSecretArn;
      if (!arn) return Promise.reject(new Error('No share-link key is configured (SHARE_SIGNING_KEY or SHARE_SIGNING_SECRET_ARN)'));
      // A failed read is not kept: the next request tries again.
      loading ??= fromSecret(arn).catch((err: unknown) => {
        loading = undefined;
        throw err;
      });
      return loading;
    },
  };
}
