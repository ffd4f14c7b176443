import type { HarnessToolRegistry, HarnessToolResult } from '../shared/types/tools.js';

/** A registry narrowed to some of its tools (see {@link filterToolRegistry}). */
export interface FilteredToolRegistry extends HarnessToolRegistry {
  readonly toolNames: readonly string[] | undefined;
}

/**
 * The tools of `registry` that `allows` lets through: the others are neither listed nor run (a
 * call of one gets a retryable `tool_unavailable` error with `refusal(name)` as its message).
 * `toolNames` is given as the caller knows it, else `undefined`.
 */
export function filterToolRegistry(
  registry: HarnessToolRegistry,
  allows: (name: string) => boolean,
  options: { toolNames?: readonly string[] | undefined; refusal: (name: string) => string },
): FilteredToolRegistry {
  return {
    toolNames: options.toolNames === undefined ? undefined : Object.freeze([...options.toolNames]),
    async listAvailable(input) {
      const listed = await registry.listAvailable(input);
      return listed.filter((tool) => allows(tool.name));
    },
    execute(call, context) {
      if (!allows(call.name)) {
        const refused: HarnessToolResult = {
          callId: call.id,
          toolName: call.name,
          status: 'error',
          error: { code: 'tool_unavailable', message: options.refusal(call.name), retryable: true },
        };
        return Promise.resolve(refused);
      }
      return registry.execute(call, context);
    },
  };
}
