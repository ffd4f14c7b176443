import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { loadBuiltins, NodeModulesUnavailableError } from './load-builtins.js';

/** The error a `vm` script gets for `import()` without a module linker, as under Jest's CommonJS mode. */
async function refusedDynamicImport(): Promise<unknown> {
  const attempt = runInNewContext("import('node:path')") as Promise<unknown>;
  return attempt.then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('loadBuiltins', () => {
  const getBuiltinModule = Object.getOwnPropertyDescriptor(process, 'getBuiltinModule');
  afterEach(() => {
    if (getBuiltinModule !== undefined) Object.defineProperty(process, 'getBuiltinModule', getBuiltinModule);
  });

  it('loads each built-in as its module object through process.getBuiltinModule', async () => {
    expect(typeof getBuiltinModule?.value).toBe('function');
    const [childProcess, processModule, path] = (await loadBuiltins(['node:child_process', 'node:process', 'node:path'])) as [
      { spawn: unknown },
      { platform: string },
      { join(...parts: string[]): string; sep: string },
    ];
    expect(typeof childProcess.spawn).toBe('function');
    expect(processModule.platform).toBe(process.platform);
    expect(path.join('a', 'b')).toBe(`a${path.sep}b`);
  });

  it('falls back to import() where process.getBuiltinModule is missing, with the same module objects', async () => {
    Object.defineProperty(process, 'getBuiltinModule', { value: undefined, configurable: true, writable: true });
    const [processModule, fs] = (await loadBuiltins(['node:process', 'node:fs'])) as [
      { cwd(): string; platform: string },
      { constants: { X_OK: number } },
    ];
    expect(processModule.platform).toBe(process.platform);
    expect(typeof processModule.cwd()).toBe('string');
    expect(fs.constants.X_OK).toBeGreaterThan(0);
  });

  it('rejects with NodeModulesUnavailableError for a built-in this runtime lacks', async () => {
    const failure = loadBuiltins(['node:no-such-builtin']);
    await expect(failure).rejects.toBeInstanceOf(NodeModulesUnavailableError);
    await expect(failure).rejects.toMatchObject({ code: 'HARNESS_ERR_NODE_MODULES_UNAVAILABLE', name: 'NodeModulesUnavailableError' });
    await expect(failure).rejects.toThrow(/^Node\.js built-in modules are not available in this runtime \(/);
  });

  it('names the refused import(), not missing child processes, when import() is refused', async () => {
    const refused = await refusedDynamicImport();
    expect((refused as { code?: unknown }).code).toMatch(/^ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING/);
    const error = new NodeModulesUnavailableError(refused);
    expect(error.message).toContain('no process.getBuiltinModule and refuses dynamic import()');
    expect(error.message).toContain('--experimental-vm-modules');
    expect(error.cause).toBe(refused);
  });
});
