import type { HarnessResult } from '../../core/types/result.js';
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
  /** Where a paused turn's continuation goes. */
  continuationOut: string | undefined;
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
  if (result.continuation !== undefined && options.continuationOut !== undefined) {
    try {
      await writeContinuationFile(options.continuationOut, options.settings, result.continuation);
      continuationFile = options.continuationOut;
    } catch (error) {
      view.notice(`Could not write the continuation to ${JSON.stringify(options.continuationOut)}: ${(error as Error).message}`);
    }
  }
  const exitCode = exitCodeForOutcome(result.outcome, interrupted);
  view.finished(result, { exitCode, continuationFile, interrupted });
  return exitCode;
}
