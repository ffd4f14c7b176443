import type { HarnessToolRegistry } from '../../shared/types/tools.js';
import { usageError } from './cli-usage-error.js';

/**
 * The registry with `requiresApproval: true` on the named tools: the turn pauses before they run.
 * @throws HarnessConfigError (a usage error, exit 2) when a name matches no tool the registry
 * offers, listing the ones it does: a misspelt name would otherwise gate nothing.
 */
export async function requireApprovalFor(registry: HarnessToolRegistry, names: readonly string[]): Promise<HarnessToolRegistry> {
  if (names.length === 0) return registry;
  const offered = (await registry.listAvailable({ assistantId: 'agent-assistant-cli', turnId: 'require-approval' })).map((definition) => definition.name);
  const unknown = names.filter((name) => !offered.includes(name));
  if (unknown.length > 0) {
    const quoted = unknown.map((name) => JSON.stringify(name)).join(', ');
    throw usageError(`--require-approval ${quoted}: no such tool. The tools offered: ${offered.join(', ')}.`, 'require-approval');
  }
  const gated = new Set(names);
  return {
    async listAvailable(input) {
      const definitions = await registry.listAvailable(input);
      return definitions.map((definition) => (gated.has(definition.name) ? { ...definition, requiresApproval: true } : definition));
    },
    execute: (call, context) => registry.execute(call, context),
  };
}
