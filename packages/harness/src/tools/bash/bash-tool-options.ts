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
  /** Cap on captured stdout, and separately stderr, in bytes: 1 to 8388608. A command passing it is stopped. @default 65536 */
  maxOutputBytes?: number | undefined;
  /** Parent environment variables passed through (names, or prefixes ending in `*`). @default DEFAULT_INHERITED_ENV */
  inheritEnv?: readonly string[] | undefined;
  /** Variables set for every command. Never written to results, errors or traces. @default undefined */
  env?: Readonly<Record<string, string>> | undefined;
  /** Time between SIGTERM and SIGKILL to the command's process group, in milliseconds: 1 to 60000. @default 2000 */
  killGraceMs?: number | undefined;
}
