import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import type { ProviderProfile, ProviderProfileSet } from '../provider-profile-types.js';

const parsedSets = new WeakSet<ProviderProfileSet>();

/** Records a set built by `parseProviderProfiles`, so lookups can trust its shape. */
export function markParsed(set: ProviderProfileSet): void {
  parsedSets.add(set);
}

/** The profile for an id or alias, with the alias used (if any). */
export interface FoundProfile {
  profile: ProviderProfile;
  alias?: string | undefined;
}

/**
 * Finds a profile by id, else by alias.
 * @throws HarnessConfigError when `set` did not come from `parseProviderProfiles` or the name is unknown.
 */
export function findProfile(set: ProviderProfileSet, idOrAlias: string): FoundProfile {
  if (typeof set !== 'object' || set === null || !parsedSets.has(set)) {
    throw new HarnessConfigError('Pass a profile set returned by parseProviderProfiles.', { field: 'set' });
  }
  if (typeof idOrAlias !== 'string') throw new HarnessConfigError('The profile id or alias must be a string.', { field: 'idOrAlias' });
  const direct = set.profiles.find((profile) => profile.id === idOrAlias);
  if (direct !== undefined) return { profile: direct };
  const target = set.aliases.get(idOrAlias);
  const aliased = target === undefined ? undefined : set.profiles.find((profile) => profile.id === target);
  if (aliased !== undefined) return { profile: aliased, alias: idOrAlias };
  const known = [...set.profiles.map((profile) => profile.id), ...set.aliases.keys()].slice(0, 20).join(', ');
  throw new HarnessConfigError(`No provider profile or alias ${JSON.stringify(idOrAlias.slice(0, 128))}; known: ${known}.`, { field: 'idOrAlias' });
}
