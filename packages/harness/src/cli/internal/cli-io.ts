/** What the `agent-assistant` program needs from its process; tests and the bin provide it. */
export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** This package's version, for `--version`. */
  version: string;
  /** Writes to standard output as is. */
  stdout(text: string): void;
  /** Writes to standard error as is. */
  stderr(text: string): void;
  /** Whether standard output is a terminal (then the answer is shown with control characters escaped). */
  stdoutIsTty: boolean;
  /** Whether standard error is a terminal (spinner and tool activity go there only then). */
  stderrIsTty: boolean;
  /** Whether standard input is a terminal (then the prompt is not read from it). */
  stdinIsTty: boolean;
  /**
   * Reads standard input to its end, or until it has more than `maxBytes` bytes: then it stops
   * reading and resolves with the first `maxBytes + 1` (the caller refuses them).
   */
  readStdin(maxBytes: number): Promise<Uint8Array>;
  /** Calls `listener` on SIGINT / SIGTERM; returns a function that stops listening. */
  onInterrupt(listener: (signal: string) => void): () => void;
}
