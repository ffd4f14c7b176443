import { findExecutable } from '../find-executable.js';
import type { NodeModules } from '../node-types.js';

/** What to hand to `spawn` on Windows. */
export interface WindowsSpawnTarget {
  command: string;
  args: readonly string[];
  /** Set when the line goes through `cmd.exe`, whose quoting Node must not redo. */
  windowsVerbatimArguments: boolean;
}

/** Characters `cmd.exe` gives a meaning to; each is escaped with `^`. */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

/**
 * How to start `command` on Windows without `shell: true`. An `.exe` (or anything that is not a
 * batch file) is spawned directly. npm installs CLIs as `.cmd` shims, which `CreateProcess` cannot
 * start: those run as `cmd.exe /d /s /c "<line>"`, with every argument quoted for the C runtime and
 * every `cmd.exe` metacharacter escaped — twice for a shim, because the shim hands `%*` to a second
 * parse — so no argument can break out into a command.
 */
export async function resolveWindowsSpawn(
  node: NodeModules,
  command: string,
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<WindowsSpawnTarget> {
  const lookup = await findExecutable(node, command, env, cwd);
  const resolved = lookup.found ? lookup.path : command;
  return buildWindowsSpawn(resolved, args, env['ComSpec'] ?? env['COMSPEC']);
}

/** The pure part of `resolveWindowsSpawn`: from a resolved file to the spawn call. */
export function buildWindowsSpawn(resolved: string, args: readonly string[], comSpec?: string): WindowsSpawnTarget {
  if (!/\.(cmd|bat)$/i.test(resolved)) return { command: resolved, args, windowsVerbatimArguments: false };
  // npm writes its shims as `.cmd` files that pass `%*` on to a second parse; `.bat` files are
  // taken to be hand-written and to read their arguments once.
  const isShim = /\.cmd$/i.test(resolved);
  const line = [escapeCmdMeta(resolved), ...args.map((arg) => quoteWindowsArgument(arg, isShim))].join(' ');
  return {
    command: comSpec !== undefined && comSpec !== '' ? comSpec : 'cmd.exe',
    args: ['/d', '/s', '/c', `"${line}"`],
    windowsVerbatimArguments: true,
  };
}

/** Quotes one argument by the C runtime's rules, then escapes it for `cmd.exe` (twice for a shim). */
export function quoteWindowsArgument(argument: string, twice: boolean): string {
  const quoted = `"${argument.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1')}"`;
  const once = escapeCmdMeta(quoted);
  return twice ? escapeCmdMeta(once) : once;
}

function escapeCmdMeta(text: string): string {
  return text.replace(CMD_META, '^$1');
}
