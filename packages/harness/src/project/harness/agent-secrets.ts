import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { ProjectAccess } from '../agent-project-types.js';
import { projectAccessAllows } from '../load/resolve-grants.js';
import type { AgentSecretSource } from './agent-harness-types.js';

/** Reads one secret from the source, or `undefined`; never throws. */
export type SecretLookup = (name: string) => string | undefined;

/**
 * The source as one lookup. A map and a plain object are read by own key only (`__proto__` is a
 * name like any other); a function is asked with the name. A value that is not a string, and a
 * lookup that throws, read as `undefined`.
 * @throws HarnessConfigError when `source` is none of the accepted forms.
 */
export function secretLookup(source: AgentSecretSource | undefined): SecretLookup {
  if (source === undefined) return () => undefined;
  const read = lookupOf(source);
  return (name) => {
    try {
      const value: unknown = read(name);
      return typeof value === 'string' ? value : undefined;
    } catch {
      return undefined;
    }
  };
}

function lookupOf(source: AgentSecretSource): (name: string) => unknown {
  if (typeof source === 'function') return source;
  if (source instanceof Map) return (name) => (source as ReadonlyMap<string, string>).get(name);
  if (typeof source === 'object' && source !== null && !Array.isArray(source)) {
    const record = source as Readonly<Record<string, string | undefined>>;
    return (name) => (Object.hasOwn(record, name) ? record[name] : undefined);
  }
  throw new HarnessConfigError('secrets must be a Map, a plain object of name → value, or a function of the name.', { field: 'secrets' });
}

/** The agent's view of the secrets: only names its grants allow are looked up at all. */
export function grantedSecrets(lookup: SecretLookup, access: ProjectAccess): SecretLookup {
  return (name) => (typeof name === 'string' && projectAccessAllows(access, name) ? lookup(name) : undefined);
}
