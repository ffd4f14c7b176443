import { loadBuiltins } from '../../shared/load-builtins.js';

/** An npm launcher script that runs a native binary from its own package (e.g. crush's `run-crush.js`). */
export interface NpmShimSpec {
  /** The file the npm bin links to, e.g. `run-crush.js`. */
  script: string;
  /** The native executable, relative to the script's directory, e.g. `bin/crush` (`.exe` added on Windows). */
  binary: string;
}

/** What a command that resolved to an npm launcher really runs. */
export interface NpmShimLookup {
  /** The launcher script (symlinks resolved). */
  launcher: string;
  /** The native executable it would run. */
  binary: string;
  /** Whether that executable is there and executable. */
  present: boolean;
}

/**
 * When `resolvedPath` (a found command) is, through its symlinks, the launcher script of `shim`:
 * the native binary beside it, and whether it is there. `undefined` for any other command.
 * The launcher is never run: crush's retries its download on every start when the binary is
 * missing and leaves an `archive-XXXXXX` directory in the current directory.
 */
export async function inspectNpmShim(resolvedPath: string, shim: NpmShimSpec, platform: string): Promise<NpmShimLookup | undefined> {
  const [fs, path, fsSync] = (await loadBuiltins(['node:fs/promises', 'node:path', 'node:fs'])) as [
    { realpath(path: string): Promise<string>; access(path: string, mode?: number): Promise<void>; stat(path: string): Promise<{ isFile(): boolean }> },
    { dirname(path: string): string; basename(path: string): string; join(...parts: string[]): string },
    { constants: { X_OK: number } },
  ];
  const launcher = await fs.realpath(resolvedPath).catch(() => undefined);
  if (launcher === undefined || path.basename(launcher) !== shim.script) return undefined;
  const binary = path.join(path.dirname(launcher), ...shim.binary.split('/')) + (platform === 'win32' ? '.exe' : '');
  const isFile = await fs.stat(binary).then((stats) => stats.isFile(), () => false);
  const present = isFile && (platform === 'win32' || (await fs.access(binary, fsSync.constants.X_OK).then(() => true, () => false)));
  return { launcher, binary, present };
}

/** The sentence that says a launcher's binary is missing, and why that happens. */
export function missingShimBinary(command: string, shim: NpmShimLookup): string {
  return `\`${command}\` is npm's launcher ${shim.launcher}, and the binary it runs, ${shim.binary}, is missing (the package's install script downloads it and failed or did not run).`;
}
