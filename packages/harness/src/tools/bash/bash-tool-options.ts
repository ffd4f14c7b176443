import type { OutputArtifactStore } from '../../context/output/output-artifact.js';

/** Options of {@link createBashToolRegistry}. */
export interface BashToolOptions {
  /** The folder commands run in (relative paths resolve against the process's working folder). */
  cwd: string;
  /** Longest run of one command, in milliseconds: 1 to 3600000. The turn's signal also stops it. @default 120000 */
  timeoutMs?: number | undefined;
  /**
   * Program names the model may run, e.g. `['git', 'ls', 'rg']`. Given: each command is split into
   * words without a shell (`'…'` and `"…"` group a word), shell syntax (`$`, backticks, `;`, `|`,
   * `&`, `<`, `>`, line breaks, unquoted globs) is refused, and only a listed program (a bare
   * name found on `PATH`) runs. Absent: the input is a bash script (`bash --norc --noprofile -c`),
   * and approval is the only safety.
   * @default undefined
   */
  allow?: readonly string[] | undefined;
  /**
   * Pause the turn for a person's approval before a command runs: a boolean, or a function of the
   * command text. @default `true` without `allow`, `false` with it
   */
  requiresApproval?: boolean | ((command: string) => boolean) | undefined;
  /**
   * Output the model sees, in bytes: 1 to 8388608. When stdout and stderr each fit, both are shown
   * whole. Past it, the model sees `reduceOutput`'s result instead — the failure lines, the
   * summary, the line ranges left out, the exit code — in at most `max(maxOutputBytes, 2048)`
   * bytes, and the raw output is kept in `outputStore`. Capture stops at 8 MiB of stdout and
   * stderr together: the command is stopped there. @default 65536
   */
  maxOutputBytes?: number | undefined;
  /**
   * Where the raw output of a reduced result is kept (`artifact.id` in the result names it; get
   * it back with `recoverOutput`). Its stderr is the stderr the tool saw: the `env` values and
   * other secrets of the command's environment blanked out.
   * @default a new private directory in the OS temporary folder (`agent-assistant-output-XXXXXX`,
   * mode 0700), made the first time output passes the cap, never deleted by the harness; its path
   * is in `structuredOutput.artifact.location`
   */
  outputStore?: OutputArtifactStore | undefined;
  /** Parent environment variables passed through (names, or prefixes ending in `*`). @default DEFAULT_INHERITED_ENV */
  inheritEnv?: readonly string[] | undefined;
  /** Variables set for every command. Never written to results, errors or traces. @default undefined */
  env?: Readonly<Record<string, string>> | undefined;
  /** Time between SIGTERM and SIGKILL to the command's process group, in milliseconds: 1 to 60000. @default 2000 */
  killGraceMs?: number | undefined;
}
