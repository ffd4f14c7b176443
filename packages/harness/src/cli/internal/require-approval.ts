import type { HarnessToolRegistry } from '../../shared/types/tools.js';

/** The registry with `requiresApproval: true` on the named tools: the turn pauses before they run. */
export function requireApprovalFor(registry: HarnessToolRegistry, names: readonly string[]): HarnessToolRegistry {
  if (names.length === 0) return registry;
  const gated = new Set(names);
  return {
    async listAvailable(input) {
      const definitions = await registry.listAvailable(input);
      return definitions.map((definition) => (gated.has(definition.name) ? { ...definition, requiresApproval: true } : definition));
    },
    execute: (call, context) => registry.execute(call, context),
  };
}
