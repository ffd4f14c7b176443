import type { NodeModules } from './node-types.js';

/** How a command resolved on this machine. */
export type ExecutableLookup =
  | { found: true; path: string }
  | { found: false; reason: 'not_found' | 'not_executable'; path?: string };

/**
 * Resolves `command` like the shell would: a path (containing a separator) is checked as given
 * (relative to `cwd`); a bare name is looked up in each `PATH` directory (with `PATHEXT`
 * extensions on Windows). A file that exists but cannot be executed is reported as such.
 */
export async function findExecutable(
  node: NodeModules,
  command: string,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<ExecutableLookup> {
  const { fs, path } = node;
  const isWindows = node.process.platform === 'win32';
  const extensions = isWindows ? ['', ...(env['PATHEXT'] ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean)] : [''];
  const hasSeparator = command.includes('/') || (isWindows && command.includes('\\'));
  const directories = hasSeparator ? [''] : (env['PATH'] ?? '').split(path.delimiter).map((dir) => (dir === '' ? '.' : dir));
  let notExecutable: string | undefined;
  for (const directory of directories) {
    for (const extension of extensions) {
      const base = directory === '' ? command : path.join(directory, command);
      const candidate = path.resolve(cwd, base + extension);
      const isFile = await fs.stat(candidate).then(
        (stats) => stats.isFile(),
        () => false,
      );
      if (!isFile) continue;
      const executable = isWindows || (await fs.access(candidate, node.executableMode).then(() => true, () => false));
      if (executable) return { found: true, path: candidate };
      notExecutable ??= candidate;
    }
  }
  return notExecutable === undefined ? { found: false, reason: 'not_found' } : { found: false, reason: 'not_executable', path: notExecutable };
}
