import { HarnessConfigError } from '../../core/errors/harness-config-error.js';

/**
 * Where an API key comes from: the key itself, or the name of an environment variable read at
 * call time (from the `env` option, else from `process.env` where a `process` exists).
 */
export type ApiKeySource = string | { env: string };

/** A record of environment values, e.g. a Cloudflare Workers `env` binding object. */
export type EnvironmentRecord = Readonly<Record<string, string | undefined>>;

interface GlobalWithProcess {
  process?: { env?: Record<string, string | undefined> };
}

/**
 * Checks the shape of an `apiKey` option (`null` means "send no key").
 * @throws HarnessConfigError naming `field` when it is neither a non-empty string, `{ env }` nor `null`.
 */
export function validateApiKeySource(value: unknown, field: string): asserts value is ApiKeySource | null | undefined {
  if (value === undefined || value === null) return;
  if (typeof value === 'string') {
    if (value.trim() !== '') return;
    throw new HarnessConfigError(`${field} must not be empty; omit it, pass { env: 'NAME' }, or null for no key.`, { field });
  }
  if (typeof value === 'object' && value !== null && typeof (value as { env?: unknown }).env === 'string') {
    if ((value as { env: string }).env.trim() !== '') return;
  }
  throw new HarnessConfigError(`${field} must be a non-empty string, { env: 'VARIABLE_NAME' }, or null for no key.`, { field });
}

/**
 * Resolves an API key at call time. An `{ env }` reference is read from `env` first, then from
 * `globalThis.process.env` when the runtime has one (Node); Workers pass their bindings as `env`.
 * Returns `undefined` when no key is available.
 */
export function resolveApiKey(source: ApiKeySource | undefined, env?: EnvironmentRecord): string | undefined {
  if (source === undefined) return undefined;
  if (typeof source === 'string') return source;
  const fromOption = env?.[source.env];
  if (typeof fromOption === 'string' && fromOption.trim() !== '') return fromOption;
  const processEnv = (globalThis as GlobalWithProcess).process?.env;
  const fromProcess = processEnv?.[source.env];
  return typeof fromProcess === 'string' && fromProcess.trim() !== '' ? fromProcess : undefined;
}

/** Names where a missing key should be looked for, for error messages (never the key itself). */
export function describeApiKeySource(source: ApiKeySource | undefined): string {
  if (source === undefined) return 'no apiKey was configured';
  if (typeof source === 'string') return 'the configured apiKey';
  return `the environment variable ${source.env} is not set`;
}
