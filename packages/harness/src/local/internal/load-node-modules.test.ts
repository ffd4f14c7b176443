import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NodeModulesUnavailableError } from './load-node-modules.js';

type LoadNodeModules = typeof import('./load-node-modules.js').loadNodeModules;

/** A fresh copy of the module, so its once-only cache starts empty. */
async function freshLoader(): Promise<LoadNodeModules> {
  vi.resetModules();
  return (await import('./load-node-modules.js')).loadNodeModules;
}

/** The error a `vm` script gets for `import()` without a module linker, as under Jest's CommonJS mode. */
async function refusedDynamicImport(): Promise<unknown> {
  const attempt = runInNewContext("import('node:path')") as Promise<unknown>;
  return attempt.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('loadNodeModules', () => {
  const getBuiltinModule = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
  afterEach(() => {
    if (getBuiltinModule !== undefined) Object.defineProperty(process, 'getBuiltinModule', getBuiltinModule);
  });

  it('loads the built-ins through process.getBuiltinModule', async () => {
    expect(typeof getBuiltinModule?.value).toBe('function');
    const node = await (await freshLoader())();
    expect(typeof node.childProcess.spawn).toBe('function');
    expect(node.process.platform).toBe(process.platform);
    expect(node.path.join('a', 'b')).toBe(`a${node.path.sep}b`);
    expect(typeof node.fs.access).toBe('function');
    expect(node.executableMode).toBeGreaterThan(0);
  });

  it('falls back to import() where process.getBuiltinModule is missing', async () => {
    Object.defineProperty(process, 'getBuiltinModule', { value: undefined, configurable: true, writable: true });
    const node = await (await freshLoader())();
    expect(typeof node.childProcess.spawn).toBe('function');
    expect(node.process.platform).toBe(process.platform);
    expect(typeof node.process.cwd()).toBe('string');
  });

  it('names the missing import() support, not missing child processes, when import() is refused', async () => {
    const refused = await refusedDynamicImport();
    expect((refused as { code?: unknown }).code).toMatch(/^ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING/);
    const error = new NodeModulesUnavailableError(refused);
    expect(error.message).toContain('no process.getBuiltinModule and refuses dynamic import()');
    expect(error.message).toContain('--experimental-vm-modules');
    expect(error.cause).toBe(refused);
  });

  it('says the built-ins are unavailable for any other failure', () => {
    const error = new NodeModulesUnavailableError(new Error('No such built-in module: node:child_process'));
    expect(error.message).toBe('Node.js built-in modules are not available in this runtime (No such built-in module: node:child_process)');
  });
});
