import { usageError } from './cli-usage-error.js';

/** The environment variable holding the continuation secret. */
export const CONTINUATION_SECRET_ENV = 'AGENT_ASSISTANT_CONTINUATION_SECRET';

/**
 * The continuation secret from the environment: it signs continuations and the continuation file.
 * @throws HarnessConfigError (usage) when it is `required` and not set, or set and shorter than 16 characters.
 */
export function readContinuationSecret(env: Readonly<Record<string, string | undefined>>, required: true): string;
export function readContinuationSecret(env: Readonly<Record<string, string | undefined>>, required: boolean): string | undefined;
export function readContinuationSecret(env: Readonly<Record<string, string | undefined>>, required: boolean): string | undefined {
  const secret = env[CONTINUATION_SECRET_ENV];
  if (secret === undefined || secret === '') {
    if (!required) return undefined;
    throw usageError(
      `Set ${CONTINUATION_SECRET_ENV} (at least 16 characters, e.g. \`export ${CONTINUATION_SECRET_ENV}=$(openssl rand -base64 32)\`): continuations are signed with it, so \`agent-assistant resume\` in another process can verify them.`,
      'continuationSecret',
    );
  }
  if (secret.length < 16) {
    throw usageError(
      `${CONTINUATION_SECRET_ENV} is shorter than 16 characters; use 32 random bytes, e.g. \`openssl rand -base64 32\`.`,
      'continuationSecret',
    );
  }
  return secret;
}
