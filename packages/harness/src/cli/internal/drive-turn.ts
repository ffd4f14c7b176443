import type { HarnessResult } from '../../core/types/result.js';
import { describeError } from '../../shared/describe-error.js';
import type { CliIo } from './cli-io.js';
import { writeContinuationFile } from './continuation-file.js';
import { exitCodeForOutcome } from './exit-codes.js';
import type { RunSettings } from './run-settings.js';
import type { TurnView } from './turn-view.js';

/** Options of {@link driveTurn}. */
export interface DriveTurnOptions {
  io: CliIo;
  view: TurnView;
  settings: RunSettings;
  /** Where a paused turn's continuation goes, and the secret that signs the file. */
  continuationOut: { path: string; secret: string } | undefined;
  /** This run continues a paused turn. */
  resumed: boolean;
  /** Runs the turn; must end (with a result) soon after `signal` aborts. */
  run(signal: AbortSignal): Promise<HarnessResult>;
}

/**
 * Runs a turn under Ctrl+C handling: the first SIGINT/SIGTERM aborts the turn, which ends
 * `cancelled` once the backend's process is gone; its continuation is still written. Resolves
 * with the exit code.
 */
export async function driveTurn(options: DriveTurnOptions): Promise<number> {
  const { io, view } = options;
  const controller = new AbortController();
  let interrupted = false;
  const stopListening = io.onInterrupt((signal) => {
    if (interrupted) {
      view.notice(`${signal} again: still stopping the turn; it ends as soon as its process is gone.`);
      return;
    }
    interrupted = true;
    view.notice(`${signal}: cancelling the turn…`);
    controller.abort(new Error(`Interrupted by ${signal}`));
  });
  let result: HarnessResult;
  try {
    result = await options.run(controller.signal);
  } finally {
    stopListening();
  }
  let continuationFile: string | undefined;
  const out = options.continuationOut;
  if (result.continuation !== undefined && out !== undefined) {
    try {
      await writeContinuationFile(out.path, options.settings, result.continuation, out.secret);
      continuationFile = out.path;
    } catch (error) {
      view.notice(`Could not write the continuation to ${JSON.stringify(out.path)}: ${describeError(error)}`);
    }
  }
  const exitCode = exitCodeForOutcome(result.outcome, interrupted);
  view.finished(result, { exitCode, continuationFile, interrupted, resumed: options.resumed });
  return exitCode;
}
