import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { toPlainJson } from '../../core/continuation/to-plain-json.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { assertEndpointAllowed } from '../http/assert-endpoint-allowed.js';
import { validateModelPricing } from '../pricing/model-pricing.js';
import { markParsed } from './internal/parsed-sets.js';
import { profileEntrySchema, profileFileSchema } from './internal/profile-schema.js';
import type { ProviderProfile, ProviderProfileSet } from './provider-profile-types.js';
import { acceptedProtocolNames, normalizeProviderProtocol } from './provider-protocols.js';

/** The default `maxInputBytes` of a profile: 1 MiB. */
export const DEFAULT_PROFILE_MAX_INPUT_BYTES = 1_048_576 /* 1 MiB */;

const MAX_FILE_BYTES = 4_194_304 /* 4 MiB */;
const secretLikeKeys = /^(api[-_]?key|key|secret|token|password|authorization|bearer)$/i;

/**
 * Validates a provider profile file — the parsed JSON value, or its text — and returns a frozen
 * set. Every profile states its protocol, model, endpoint and auth explicitly; the key itself is
 * never in the file (`secretSource` names an environment variable); endpoints must be `https:` or
 * loopback unless the profile sets `allowInsecureHttp: true`; aliases point at profile ids.
 * @throws HarnessConfigError naming the profile and the field (e.g. `profiles[1].endpoint`).
 * @example
 * ```ts
 * const set = parseProviderProfiles(JSON.parse(await readFile('profiles.json', 'utf8')));
 * const model = createModelFromProfile(set, 'local');
 * ```
 */
export function parseProviderProfiles(json: unknown): ProviderProfileSet {
  const file = readFile(json);
  const profiles: ProviderProfile[] = [];
  const ids = new Set<string>();
  file.profiles.forEach((entry, index) => {
    const profile = parseProfile(entry, index);
    if (ids.has(profile.id)) fail(`profiles[${index}].id`, `Profile ${JSON.stringify(profile.id)} (profiles[${index}]): the id is used by an earlier profile.`);
    ids.add(profile.id);
    profiles.push(profile);
  });
  const set: ProviderProfileSet = Object.freeze({ profiles: Object.freeze(profiles), aliases: readAliases(file.aliases, ids) });
  markParsed(set);
  return set;
}

function readFile(json: unknown): { profiles: unknown[]; aliases: unknown } {
  let value = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json) as unknown;
    } catch {
      fail('profiles', 'The provider profile file is not valid JSON.');
    }
  }
  const plain = toPlainJson(value, { maxBytes: MAX_FILE_BYTES, maxDepth: 16 });
  if (!plain.ok) fail('profiles', `The provider profile file cannot be read: ${plain.reason}.`);
  const parsed = profileFileSchema.safeParse(plain.value);
  if (!parsed.success) fail(String(parsed.error.issues[0]?.path[0] ?? 'profiles'), `Invalid provider profile file: ${formatIssues(parsed.error.issues)}.`);
  return { profiles: parsed.data.profiles, aliases: parsed.data.aliases };
}

function parseProfile(entry: unknown, index: number): ProviderProfile {
  const where = `profiles[${index}]`;
  const rawId = typeof entry === 'object' && entry !== null && typeof (entry as { id?: unknown }).id === 'string' ? (entry as { id: string }).id : undefined;
  const name = rawId === undefined ? where : `Profile ${JSON.stringify(rawId.slice(0, 128))} (${where})`;
  if (typeof entry === 'object' && entry !== null) {
    const secretKey = Object.keys(entry).find((key) => secretLikeKeys.test(key));
    if (secretKey !== undefined) {
      fail(`${where}.${secretKey}`, `${name}: "${secretKey}" is not allowed — a key never goes into a profile; name its environment variable in secretSource.`);
    }
  }
  const parsed = profileEntrySchema.safeParse(entry);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path ?? [];
    fail([where, ...path.map(String)].join('.'), `${name}: ${formatIssues(parsed.error.issues)}.`);
  }
  const data = parsed.data;
  const protocol = normalizeProviderProtocol(data.protocol);
  if (protocol === undefined) {
    fail(`${where}.protocol`, `${name}: protocol "${data.protocol.slice(0, 64)}" is not one of ${acceptedProtocolNames().join(', ')}.`);
  }
  const allowInsecureHttp = data.allowInsecureHttp === true;
  try {
    assertEndpointAllowed(data.endpoint, 'endpoint', { allowInsecureHttp, optInForm: 'profile' });
  } catch (error) {
    fail(`${where}.endpoint`, `${name}: ${error instanceof Error ? error.message : 'endpoint is not allowed'}`);
  }
  if (data.authMode === 'api-key' && data.secretSource === undefined) {
    fail(`${where}.secretSource`, `${name}: authMode "api-key" needs secretSource { kind: "environment", name: "VARIABLE" }.`);
  }
  if (data.authMode === 'none' && data.secretSource !== undefined) {
    fail(`${where}.secretSource`, `${name}: secretSource is set but authMode is "none"; set authMode "api-key" or remove secretSource.`);
  }
  if (protocol === 'anthropic-messages' && data.maxOutputTokens === undefined) {
    fail(`${where}.maxOutputTokens`, `${name}: the anthropic-messages protocol needs maxOutputTokens (the API requires max_tokens).`);
  }
  if ((protocol === 'anthropic-messages' || protocol === 'gemini-generate-content') && data.authMode === 'none') {
    fail(`${where}.authMode`, `${name}: the ${protocol} protocol needs authMode "api-key".`);
  }
  if (data.namedToolChoice !== undefined && protocol !== 'openai-chat') {
    fail(`${where}.namedToolChoice`, `${name}: namedToolChoice applies only to the openai-chat protocol.`);
  }
  const pricing = readPricing(data.pricing, where, name);
  return Object.freeze({
    id: data.id,
    provider: data.provider,
    protocol,
    model: data.model,
    endpoint: data.endpoint,
    authMode: data.authMode,
    ...(data.secretSource === undefined ? {} : { secretSource: Object.freeze({ ...data.secretSource }) }),
    allowInsecureHttp,
    maxInputBytes: data.maxInputBytes ?? DEFAULT_PROFILE_MAX_INPUT_BYTES,
    ...(data.maxOutputTokens === undefined ? {} : { maxOutputTokens: data.maxOutputTokens }),
    ...(data.contextWindow === undefined ? {} : { contextWindow: data.contextWindow }),
    ...(data.temperature === undefined ? {} : { temperature: data.temperature }),
    ...(data.namedToolChoice === undefined ? {} : { namedToolChoice: data.namedToolChoice }),
    ...(pricing === undefined ? {} : { pricing }),
    ...(data.label === undefined ? {} : { label: data.label }),
  });
}

function readPricing(value: unknown, where: string, name: string) {
  try {
    return validateModelPricing(value, 'pricing');
  } catch (error) {
    const field = HarnessConfigError.isInstance(error) ? (error.field ?? 'pricing') : 'pricing';
    return fail(`${where}.${field}`, `${name}: ${error instanceof Error ? error.message : 'invalid pricing'}`);
  }
}

function readAliases(raw: unknown, ids: ReadonlySet<string>): ReadonlyMap<string, string> {
  const aliases = new Map<string, string>();
  if (raw === undefined) return aliases;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('aliases', 'aliases must be an object of alias → profile id.');
  for (const [alias, target] of Object.entries(raw)) {
    const field = `aliases.${alias.slice(0, 128)}`;
    if (alias.trim() === '' || alias.length > 128) fail(field, 'An alias must be a non-empty name of at most 128 characters.');
    if (typeof target !== 'string') fail(field, `Alias "${alias}" must name a profile id (a string).`);
    if (ids.has(alias)) fail(field, `Alias "${alias}" is also a profile id; one name must mean one profile.`);
    if (!ids.has(target)) fail(field, `Alias "${alias}" points at "${target.slice(0, 128)}", which is not a profile id.`);
    aliases.set(alias, target);
  }
  return aliases;
}

function fail(field: string, message: string): never {
  throw new HarnessConfigError(message, { field });
}
