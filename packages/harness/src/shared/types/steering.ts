/**
 * What became of one `steer()` call.
 * - `delivered`: the engine accepted the input into the running turn.
 * - `steer_unsupported`: the turn's backend (or the harness's own model loop) cannot take input
 *   mid-turn; the input was not used. Send it as the next turn instead.
 * - `turn_finished`: the turn ended before the input could be delivered.
 * - `refused`: the engine or the harness refused it (`message` says why, e.g. too many pending).
 */
export type HarnessSteerStatus = 'delivered' | 'steer_unsupported' | 'turn_finished' | 'refused';

/** The answer of `HarnessSteering.steer`. Every call gets exactly one; input is never dropped silently. */
export interface HarnessSteerOutcome {
  /** Identifies this input in trace events and in `result.metadata.steering`. */
  id: string;
  status: HarnessSteerStatus;
  /** Why it was not delivered. */
  message?: string | undefined;
}

/**
 * A handle for adding user input to one running turn. Create it with `createSteering()`, pass it
 * as `runTurn(input, { steering })` (or `streamTurn`, `resumeTurn`), and call `steer(text)` while
 * the turn runs. Input sent before the turn reached its backend waits and is delivered in order.
 * One handle serves one turn.
 */
export interface HarnessSteering {
  /**
   * Adds `text` to the running turn. Settles when the backend took it or it is clear it will not.
   * @throws HarnessConfigError (as a rejection) when `text` is not a non-empty string within the size limit.
   */
  steer(text: string): Promise<HarnessSteerOutcome>;
}
