import { findExecutable } from '../../process/find-executable.js';
import { loadNodeModules } from '../../process/load-node-modules.js';
import { loadPresetFs } from './preset-files.js';

/** Directories walked up from the npm loader looking for `node_modules/@github/copilot-<platform>-<arch>`. */
const MAX_LEVELS = 32;

/**
 * The program to start for `command`: when it resolves to the `@github/copilot` npm loader
 * (`npm-loader.js`, a Node.js script that `spawnSync`s the native binary and, when signalled, dies
 * leaving that binary and its tools running), the native binary of the platform package next to
 * it, found the way Node.js resolves `@github/copilot-<platform>-<arch>` from the loader. Anything
 * else (the native binary itself, a wrapper, a missing command) is returned unchanged.
 * @throws Error naming the package when the loader's native binary is not installed.
 */
export async function copilotNativeBinary(command: string, env: Readonly<Record<string, string | undefined>>, cwd: string | undefined): Promise<string> {
  const [node, fs] = await Promise.all([loadNodeModules(), loadPresetFs()]);
  const lookup = await findExecutable(node, command, { ...env }, cwd ?? node.process.cwd());
  if (!lookup.found) return command;
  const real = await fs.realpath(lookup.path).catch(() => lookup.path);
  if (fs.basename(real) !== 'npm-loader.js') return lookup.path;
  const platforms = fs.platform === 'linux' ? ['linux', 'linuxmusl'] : [fs.platform];
  const names = fs.platform === 'win32' ? ['copilot.exe', 'copilot'] : ['copilot'];
  let dir = fs.dirname(real);
  for (let level = 0; level < MAX_LEVELS; level += 1) {
    for (const platform of platforms) {
      for (const name of names) {
        const candidate = fs.join(dir, 'node_modules', '@github', `copilot-${platform}-${fs.arch}`, name);
        if (await fs.access(candidate, node.executableMode).then(() => true, () => false)) return candidate;
      }
    }
    const parent = fs.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(
    `${lookup.path} is the npm loader of GitHub Copilot CLI, and its native binary (@github/copilot-${platforms[0]}-${fs.arch}) is not installed beside it. Reinstall @github/copilot, or set \`command\` to the native \`copilot\` binary.`,
  );
}
