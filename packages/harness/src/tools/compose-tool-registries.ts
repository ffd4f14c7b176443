import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type { HarnessToolAvailabilityInput, HarnessToolDefinition, HarnessToolRegistry } from '../shared/types/tools.js';

/** A registry made of several others. */
export interface ComposedToolRegistry extends HarnessToolRegistry {
  /** All tool names, when every part declares its names up front (`toolNames`); else `undefined`. */
  readonly toolNames: readonly string[] | undefined;
  /**
   * Every part's tools, in part order.
   * @throws HarnessConfigError when two parts offer a tool of the same name.
   */
  listAvailable(input: HarnessToolAvailabilityInput): Promise<HarnessToolDefinition[]>;
}

/**
 * Merges registries into one; each call goes to the registry that offers its tool. Registries
 * that declare `toolNames` (those from `createToolRegistry` and `createPublicGitHubToolRegistry`,
 * and compositions of them) are checked for clashes at once; others when their tools are listed.
 * @throws HarnessConfigError when an argument is not a registry, or two declare the same tool name.
 * @example
 * ```ts
 * const tools = composeToolRegistries(createToolRegistry([weather]), createPublicGitHubToolRegistry({ owner, repo }));
 * ```
 */
export function composeToolRegistries(...registries: HarnessToolRegistry[]): ComposedToolRegistry {
  const owners = new Map<string, number>();
  const dynamic: number[] = [];
  registries.forEach((registry, index) => {
    if (typeof registry?.listAvailable !== 'function' || typeof registry.execute !== 'function') {
      throw new HarnessConfigError(`registries[${index}] is not a tool registry (listAvailable and execute).`, {
        field: `registries[${index}]`,
      });
    }
    const names = declaredNames(registry);
    if (names === undefined) {
      dynamic.push(index);
      return;
    }
    for (const name of names) {
      const owner = owners.get(name);
      if (owner !== undefined) throw clash(name, owner, index);
      owners.set(name, index);
    }
  });

  const listDynamic = async (input: HarnessToolAvailabilityInput) =>
    Promise.all(dynamic.map(async (index) => ({ index, tools: await registries[index]!.listAvailable(input) })));

  return {
    toolNames: dynamic.length === 0 ? Object.freeze([...owners.keys()]) : undefined,
    async listAvailable(input) {
      const listed = await Promise.all(registries.map((registry) => registry.listAvailable(input)));
      const seen = new Map<string, number>();
      listed.forEach((tools, index) => {
        for (const tool of tools) {
          const owner = seen.get(tool.name);
          if (owner !== undefined) throw clash(tool.name, owner, index);
          seen.set(tool.name, index);
        }
      });
      return listed.flat();
    },
    async execute(call, context) {
      let owner = owners.get(call.name);
      if (owner === undefined && dynamic.length > 0) {
        const found = (await listDynamic(context)).filter(({ tools }) => tools.some((tool) => tool.name === call.name));
        owner = found[0]?.index;
      }
      if (owner === undefined) {
        return {
          callId: call.id,
          toolName: call.name,
          status: 'error',
          error: { code: 'tool_unavailable', message: `No registry offers a tool named "${call.name}".`, retryable: true },
        };
      }
      return registries[owner]!.execute(call, context);
    },
  };
}

/** The tool names a registry declares up front (`toolNames`), or `undefined` when it declares none. */
export function declaredNames(registry: HarnessToolRegistry): readonly string[] | undefined {
  const names = (registry as { toolNames?: unknown }).toolNames;
  return Array.isArray(names) && names.every((name) => typeof name === 'string') ? names : undefined;
}

function clash(name: string, first: number, second: number): HarnessConfigError {
  return new HarnessConfigError(
    `The tool name "${name}" is offered by registries[${first}] and registries[${second}]; tool names must be unique.`,
    { field: `registries[${second}]` }
  );
}
