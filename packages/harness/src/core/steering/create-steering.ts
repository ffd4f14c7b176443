import type { HarnessSteering } from '../../shared/types/steering.js';
import { newSteeringHandle } from '../internal/turn-steering.js';

/**
 * Creates a handle for adding user input to a running turn. Pass it in the run options and call
 * `steer(text)` while the turn runs; each call resolves with what became of that input:
 * `delivered` (the engine took it), `steer_unsupported` (the backend cannot take input mid-turn;
 * send it as the next turn), `turn_finished` or `refused`. Input sent before the backend is ready
 * waits, in order. Backends declare support with `describeCapabilities().steer`.
 *
 * @example
 * const steering = createSteering();
 * const pending = harness.runTurn(input, { steering });
 * const outcome = await steering.steer('Use the staging database instead.');
 * if (outcome.status !== 'delivered') queueForNextTurn(outcome);
 * const result = await pending; // result.metadata.steering counts the inputs by status
 */
export function createSteering(): HarnessSteering {
  return newSteeringHandle();
}
