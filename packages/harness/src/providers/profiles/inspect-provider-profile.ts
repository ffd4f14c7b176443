import { resolveApiKey } from '../http/resolve-api-key.js';
import { findProfile } from './internal/parsed-sets.js';
import type { InspectProviderProfileOptions, ProviderProfileInspection, ProviderProfileSet } from './provider-profile-types.js';

/**
 * Checks a profile without calling the provider and without revealing the key: finds it by id or
 * alias, and for `api-key` profiles reports whether the secret's variable is set (in `env`, then
 * `process.env`). Nothing is sent anywhere, so a profile that looks fine is only
 * `runnable: 'not_verified'`; one with a problem (an unset variable) is `runnable: 'no'`.
 * @throws HarnessConfigError when the set was not made by `parseProviderProfiles` or the name is unknown.
 * @example
 * ```ts
 * inspectProviderProfile(set, 'router', { env });
 * // → { id: 'router', protocol: 'openai-chat', endpointHost: 'openrouter.ai', secret: { name: 'OPENROUTER_API_KEY', present: true }, problems: [], runnable: 'not_verified', … }
 * ```
 */
export function inspectProviderProfile(
  set: ProviderProfileSet,
  idOrAlias: string,
  options: InspectProviderProfileOptions = {},
): ProviderProfileInspection {
  const { profile, alias } = findProfile(set, idOrAlias);
  const url = new URL(profile.endpoint);
  const problems: string[] = [];
  let secret: ProviderProfileInspection['secret'];
  if (profile.secretSource !== undefined) {
    const present = resolveApiKey({ env: profile.secretSource.name }, options.env) !== undefined;
    secret = { kind: 'environment', name: profile.secretSource.name, present };
    if (!present) problems.push(`The environment variable ${profile.secretSource.name} is not set.`);
  }
  return {
    id: profile.id,
    ...(alias === undefined ? {} : { alias }),
    provider: profile.provider,
    protocol: profile.protocol,
    model: profile.model,
    endpointHost: url.host,
    encrypted: url.protocol === 'https:',
    authMode: profile.authMode,
    ...(secret === undefined ? {} : { secret }),
    problems,
    runnable: problems.length === 0 ? 'not_verified' : 'no',
  };
}
