import { usageError } from './cli-usage-error.js';
import { CONTINUATION_SECRET_ENV, MIN_SECRET_CHARS, readSecretKeyFile, secretKeyPath } from './secret-key-file.js';

export { CONTINUATION_SECRET_ENV } from './secret-key-file.js';

/**
 * The continuation secret: it signs continuations and the continuation file. From
 * `AGENT_ASSISTANT_CONTINUATION_SECRET`, else (when `required`) from the key file
 * `agent-assistant secret init` wrote (see `secretKeyPath`).
 * @throws HarnessConfigError (usage) when it is `required` and neither is there, when the variable
 * is shorter than 16 characters, or when the key file is refused (open to others, not a key).
 */
export async function readContinuationSecret(env: Readonly<Record<string, string | undefined>>, required: true): Promise<string>;
export async function readContinuationSecret(env: Readonly<Record<string, string | undefined>>, required: boolean): Promise<string | undefined>;
export async function readContinuationSecret(env: Readonly<Record<string, string | undefined>>, required: boolean): Promise<string | undefined> {
  const secret = env[CONTINUATION_SECRET_ENV];
  if (secret !== undefined && secret !== '') {
    if (secret.length < MIN_SECRET_CHARS) {
      throw usageError(
        `${CONTINUATION_SECRET_ENV} is shorter than ${MIN_SECRET_CHARS} characters; use 32 random bytes, e.g. \`openssl rand -base64 32\`.`,
        'continuationSecret',
      );
    }
    return secret;
  }
  if (!required) return undefined;
  const path = secretKeyPath(env);
  const fromFile = await readSecretKeyFile(path);
  if (fromFile !== undefined) return fromFile;
  throw usageError(
    `No continuation secret: continuations are signed with it, so \`agent-assistant resume\` in another process can verify them. Run \`agent-assistant secret init\` once (it writes a random key to ${JSON.stringify(path)}, used whenever ${CONTINUATION_SECRET_ENV} is not set), or set ${CONTINUATION_SECRET_ENV} (at least ${MIN_SECRET_CHARS} characters, e.g. \`export ${CONTINUATION_SECRET_ENV}=$(openssl rand -base64 32)\`).`,
    'continuationSecret',
  );
}
