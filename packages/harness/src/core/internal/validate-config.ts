import { closestName } from '../../shared/closest-name.js';
import { HarnessConfigError } from '../errors/harness-config-error.js';
import type { HarnessBackendConfig, HarnessConfig, HarnessModelConfig } from '../types/config.js';

/** Every key of a `createHarness` config, typed so that a key added to the config types cannot be left out here. */
export const HARNESS_CONFIG_KEYS = /* @__PURE__ */ Object.freeze({
  model: true,
  backend: true,
  tools: true,
  approvals: true,
  trace: true,
  clock: true,
  limits: true,
  hooks: true,
  continuationSecret: true,
  unsignedContinuations: true,
  continuationTtlMs: true,
  resumeGuard: true,
  requirements: true,
  generateId: true,
  output: true,
  resultMetadata: true,
  compaction: true,
} as const satisfies Record<keyof HarnessModelConfig | keyof HarnessBackendConfig, true>);

const KNOWN_KEYS: ReadonlySet<string> = new Set(Object.keys(HARNESS_CONFIG_KEYS));

type Check = [field: string, value: unknown, methods: string[]];

/** `value[key]`, with a throwing getter or Proxy trap reported as a `HarnessConfigError` on `field`. */
function readProperty(value: object, key: string, field: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    throw new HarnessConfigError(`${field}.${key} could not be read (a getter or Proxy threw).`, { field: `${field}.${key}` });
  }
}

/** Checks the shape of a `createHarness` config; throws `HarnessConfigError` naming the bad field. */
export function validateConfig(config: unknown): asserts config is HarnessConfig {
  if (typeof config !== 'object' || config === null) {
    throw new HarnessConfigError('createHarness needs a config object.', { field: 'config' });
  }
  for (const key of Object.keys(config)) {
    if (KNOWN_KEYS.has(key)) continue;
    const near = closestName(key, KNOWN_KEYS);
    throw new HarnessConfigError(
      `createHarness has no option ${JSON.stringify(key.slice(0, 80))}${near === undefined ? '' : `; did you mean ${near}?`} (known: ${[...KNOWN_KEYS].join(', ')}).`,
      { field: key.slice(0, 80) },
    );
  }
  const candidate = config as Record<string, unknown>;
  const hasModel = candidate.model !== undefined && candidate.model !== null;
  const hasBackend = candidate.backend !== undefined && candidate.backend !== null;
  if (hasModel === hasBackend) {
    throw new HarnessConfigError(
      hasModel
        ? 'Give either model or backend, not both.'
        : 'createHarness needs a model (a HarnessModelAdapter) or a backend (an ExecutionAdapter).',
      { field: hasModel ? 'backend' : 'model' },
    );
  }
  const checks: Check[] = [
    ['model', candidate.model, ['nextStep']],
    ['backend', candidate.backend, ['describeCapabilities', 'negotiate', 'execute']],
    ['tools', candidate.tools, ['listAvailable', 'execute']],
    ['approvals', candidate.approvals, ['prepareRequest']],
    ['trace', candidate.trace, ['emit']],
    ['clock', candidate.clock, ['now']],
    ['resumeGuard', candidate.resumeGuard, ['claim']],
  ];
  for (const [field, value, methods] of checks) {
    if (value === undefined) continue;
    if (typeof value !== 'object' || value === null) {
      throw new HarnessConfigError(`${field} must be an object.`, { field });
    }
    for (const method of methods) {
      if (typeof readProperty(value, method, field) !== 'function') {
        throw new HarnessConfigError(`${field}.${method} must be a function.`, { field: `${field}.${method}` });
      }
    }
  }
  const release = (candidate.resumeGuard as { release?: unknown } | undefined)?.release;
  if (release !== undefined && typeof release !== 'function') {
    throw new HarnessConfigError('resumeGuard.release must be a function or left out.', { field: 'resumeGuard.release' });
  }
  if (hasBackend && typeof readProperty(candidate.backend as object, 'backendId', 'backend') !== 'string') {
    throw new HarnessConfigError('backend.backendId must be a string.', { field: 'backend.backendId' });
  }
  const hooks = candidate.hooks;
  if (hooks !== undefined) {
    if (typeof hooks !== 'object' || hooks === null) throw new HarnessConfigError('hooks must be an object.', { field: 'hooks' });
    for (const [name, hook] of Object.entries(hooks)) {
      if (hook !== undefined && typeof hook !== 'function') {
        throw new HarnessConfigError(`hooks.${name} must be a function.`, { field: `hooks.${name}` });
      }
    }
  }
  checkSecrets(candidate.continuationSecret);
  if (candidate.unsignedContinuations !== undefined && candidate.unsignedContinuations !== 'allow') {
    throw new HarnessConfigError("unsignedContinuations must be 'allow' or left out.", { field: 'unsignedContinuations' });
  }
  const ttl = candidate.continuationTtlMs;
  if (ttl !== undefined && (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl <= 0)) {
    throw new HarnessConfigError('continuationTtlMs must be a positive number of milliseconds.', {
      field: 'continuationTtlMs',
    });
  }
  if (candidate.generateId !== undefined && typeof candidate.generateId !== 'function') {
    throw new HarnessConfigError('generateId must be a function.', { field: 'generateId' });
  }
}

const MIN_SECRET_LENGTH = 16;
const MAX_SECRETS = 16;

/** The `continuationSecret` of a config as a rotation list (current first); `undefined` when not set. */
export function continuationSecrets(config: HarnessConfig): readonly string[] | undefined {
  const secret = config.continuationSecret;
  if (secret === undefined) return undefined;
  return typeof secret === 'string' ? [secret] : [...secret];
}

function checkSecrets(secret: unknown): void {
  if (secret === undefined) return;
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? (secret as unknown[]) : undefined;
  if (list === undefined || list.length === 0 || list.length > MAX_SECRETS) {
    throw new HarnessConfigError(
      `continuationSecret must be a string, or a rotation list of 1 to ${MAX_SECRETS} strings (current first).`,
      { field: 'continuationSecret' },
    );
  }
  list.forEach((entry, index) => {
    if (typeof entry === 'string' && entry.length >= MIN_SECRET_LENGTH) return;
    const field = typeof secret === 'string' ? 'continuationSecret' : `continuationSecret[${index}]`;
    throw new HarnessConfigError(
      `${field} is too weak: it must be a string of at least ${MIN_SECRET_LENGTH} characters. It is the key that stops ` +
        'anyone holding a paused turn from forging or altering it (its pending tool calls, approvals and transcript), ' +
        'so a short one can be guessed. Use 32 random bytes, e.g. base64 of crypto.getRandomValues(new Uint8Array(32)).',
      { field },
    );
  });
}
