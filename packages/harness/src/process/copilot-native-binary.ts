import { loadBuiltins } from '../shared/load-builtins.js';
import { findExecutable } from './find-executable.js';
import type { NodeModules } from './node-types.js';

interface FsLike {
  realpath(path: string): Promise<string>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
}

const SHIM = 'npm-loader.js';
const MAX_PACKAGE_JSON_CHARS = 65_536;

/**
 * The program to run for GitHub Copilot CLI's `command`. The `copilot` that npm installs is
 * `@github/copilot/npm-loader.js`, a Node.js shim that runs the native binary of the platform
 * package (`@github/copilot-<platform>-<arch>`) with `spawnSync`; signalling the shim leaves the
 * native process (and its tools) running. When `command` resolves to that shim (through the `.bin`
 * link, or a Windows `.cmd` beside `node_modules`), this returns the native binary beside it;
 * otherwise `command` resolved as given (or `command` itself when it cannot be found, so starting
 * it fails with its own name); `shimWithoutNative` names the platform package when the shim was
 * found but no native binary beside it. Never throws.
 */
export async function resolveCopilotNativeBinary(
  node: NodeModules,
  command: string,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<{ path: string; fromShim: boolean; shimWithoutNative?: string }> {
  try {
    const lookup = await findExecutable(node, command, env, cwd);
    if (!lookup.found) return { path: command, fromShim: false };
    const [fsModule] = await loadBuiltins(['node:fs/promises']);
    const fs = fsModule as FsLike;
    const { path } = node;
    const real = await fs.realpath(lookup.path).catch(() => lookup.path);
    const bin = path.resolve(lookup.path, '..');
    const shimDirs = real.endsWith(`${path.sep}${SHIM}`)
      ? [path.resolve(real, '..')]
      : [path.join(bin, 'node_modules', '@github', 'copilot'), path.join(bin, '..', '@github', 'copilot')];
    let sawShim = false;
    for (const shimDir of shimDirs) {
      if (!(await isFile(node, path.join(shimDir, SHIM)))) continue;
      sawShim = true;
      for (const platform of platformNames(node.process.platform)) {
        const name = `copilot-${platform}-${arch()}`;
        // Where Node's resolution from the shim finds it: nested first, then beside it in the scope.
        for (const dir of [path.join(shimDir, 'node_modules', '@github', name), path.join(shimDir, '..', name)]) {
          const binary = await nativeEntry(fs, node, dir);
          if (binary !== undefined) return { path: binary, fromShim: true };
        }
      }
    }
    return sawShim ? { path: lookup.path, fromShim: false, shimWithoutNative: `@github/copilot-${platformNames(node.process.platform)[0] ?? ''}-${arch()}` } : { path: lookup.path, fromShim: false };
  } catch {
    return { path: command, fromShim: false };
  }
}

/** The platform package's entry (its `exports["."]`, else `copilot`/`copilot.exe`) when it is a file. */
async function nativeEntry(fs: FsLike, node: NodeModules, dir: string): Promise<string | undefined> {
  let entry: string | undefined;
  // No manifest: the binary's usual names; a manifest that does not parse: nothing is followed.
  const text = await fs.readFile(node.path.join(dir, 'package.json'), 'utf8').catch(() => undefined);
  if (text !== undefined) {
    try {
      if (text.length <= MAX_PACKAGE_JSON_CHARS) {
        const manifest = JSON.parse(text) as { exports?: unknown };
        const exported = typeof manifest.exports === 'object' && manifest.exports !== null ? (manifest.exports as Record<string, unknown>)['.'] : manifest.exports;
        if (typeof exported === 'string') entry = exported;
      }
    } catch {
      return undefined;
    }
  }
  const candidates = entry === undefined ? ['copilot', 'copilot.exe'] : [entry];
  for (const candidate of candidates) {
    const resolved = node.path.resolve(dir, candidate);
    if (!resolved.startsWith(node.path.resolve(dir) + node.path.sep)) continue;
    if (await isFile(node, resolved)) return resolved;
  }
  return undefined;
}

function isFile(node: NodeModules, path: string): Promise<boolean> {
  return node.fs.stat(path).then(
    (stats) => stats.isFile(),
    () => false,
  );
}

/** The shim's platform names: on Linux npm installs only the glibc or the musl package, so both are tried. */
function platformNames(platform: string): string[] {
  return platform === 'linux' ? ['linux', 'linuxmusl'] : [platform];
}

function arch(): string {
  return (globalThis as { process?: { arch?: string } }).process?.arch ?? 'x64';
}
