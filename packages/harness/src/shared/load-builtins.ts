// Lazily loads Node.js built-ins for the Node-only parts reachable from the Worker-safe entries
// (local backends, the relay adapter, file resume guards). Nothing here runs at import time.

/** `process.getBuiltinModule` (Node.js ≥ 20.16, Deno, Bun): loads a built-in synchronously. */
type GetBuiltinModule = (id: string) => unknown;
import { HarnessError } from './errors/harness-error.js';
import { describeError } from './describe-error.js';
import { hasErrorMarker } from './errors/has-error-marker.js';

function builtinModuleGetter(): GetBuiltinModule | undefined {
  const processObject = (globalThis as { process?: { getBuiltinModule?: unknown } }).process;
  const getter = processObject?.getBuiltinModule;
  return typeof getter === 'function' ? (id) => (getter as GetBuiltinModule).call(processObject, id) : undefined;
}

/**
 * Loads one built-in. `process.getBuiltinModule` comes first: it needs no module loader, so it
 * works where `import()` is refused (Jest's default CommonJS mode throws
 * `ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG`). Dynamic `import()` is the fallback. The
 * specifier is a parameter, not a literal, so bundlers targeting Workers neither resolve nor
 * inline it. Resolves to the module object (`module.exports`, the namespace's `default`).
 */
async function loadBuiltin(specifier: string, getBuiltin: GetBuiltinModule | undefined): Promise<unknown> {
  const loaded = getBuiltin?.(specifier);
  if (loaded !== undefined && loaded !== null) return loaded;
  const namespace = (await import(/* @vite-ignore */ specifier)) as { default?: unknown };
  return namespace.default ?? namespace;
}

const marker = Symbol.for('agent-assistant.error.NodeModulesUnavailableError');

/**
 * Thrown when a Node-only part (local backends, engine sessions, file stores, the Node HTTP
 * transport, the relay adapter) runs where Node.js built-ins cannot be loaded, e.g. in a
 * Cloudflare Worker. Code `HARNESS_ERR_NODE_MODULES_UNAVAILABLE`; the message names the cause,
 * and `cause` holds the loader's own error.
 */
export class NodeModulesUnavailableError extends HarnessError {
  constructor(cause: unknown) {
    const reason = describeError(cause);
    const code = (cause as { code?: unknown } | null)?.code;
    // `…_MISSING` (a vm script without a linker) or `…_MISSING_FLAG` (Jest's default CommonJS mode).
    const blockedImport = typeof code === 'string' && code.startsWith('ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING');
    super(
      'HARNESS_ERR_NODE_MODULES_UNAVAILABLE',
      blockedImport
        ? `this runtime has no process.getBuiltinModule and refuses dynamic import() (${reason}); on Node.js use ≥ 20.16, or run Jest with --experimental-vm-modules`
        : `Node.js built-in modules are not available in this runtime (${reason})`,
      { cause },
    );
    Object.defineProperty(this, marker, { value: true });
    this.name = 'NodeModulesUnavailableError';
  }

  /** True for any `NodeModulesUnavailableError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is NodeModulesUnavailableError {
    return hasErrorMarker(value, marker);
  }
}

/**
 * Loads the named built-ins (e.g. `node:fs/promises`), each as its module object, in order.
 * Rejects with `NodeModulesUnavailableError` outside Node.js (for example in a Cloudflare Worker).
 */
export async function loadBuiltins(specifiers: readonly string[]): Promise<unknown[]> {
  const getBuiltin = builtinModuleGetter();
  try {
    return await Promise.all(specifiers.map((specifier) => loadBuiltin(specifier, getBuiltin)));
  } catch (error) {
    throw new NodeModulesUnavailableError(error);
  }
}
