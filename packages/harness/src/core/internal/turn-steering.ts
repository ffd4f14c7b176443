import { describeError } from '../../shared/describe-error.js';
import type { HarnessSteerOutcome, HarnessSteerStatus, HarnessSteering } from '../../shared/types/steering.js';
import type { ExecutionSteerMessage, ExecutionSteering } from '../../execution/types.js';
import { HarnessConfigError } from '../errors/harness-config-error.js';

/** Longest steering input, in characters. */
export const MAX_STEER_CHARS = 100_000;
/** Most inputs waiting for the backend at once; more are refused, not dropped. */
export const MAX_PENDING_STEERS = 64;

type Closing = { status: Exclude<HarnessSteerStatus, 'delivered'>; message: string };
interface Waiting {
  message: ExecutionSteerMessage;
  settle: (outcome: HarnessSteerOutcome) => void;
}

/** The per-turn side of a steering handle, as the run sees it. */
export interface TurnSteering {
  /** The channel handed to a backend that declares `steer: true`. */
  readonly channel: ExecutionSteering;
  /**
   * Refuses everything waiting and everything later with `status`. An input the backend is
   * taking right now still gets the backend's answer.
   */
  close(status: Closing['status'], message: string): void;
  /** Closes as `turn_finished` and settles an input the backend never answered (the run is over). */
  finish(): void;
  /** How many inputs ended in each status; empty when nobody steered. */
  counts(): Partial<Record<HarnessSteerStatus, number>>;
}

/** Called once per settled input (the run emits a trace event for it). */
export type SteerObserver = (outcome: HarnessSteerOutcome, chars: number) => void;

class SteeringState {
  private bound = false;
  private closing: Closing | undefined;
  private readonly waiting: Waiting[] = [];
  private inFlight: Waiting | undefined;
  private deliver: ((message: ExecutionSteerMessage) => Promise<void> | void) | undefined;
  private nextId = 0;
  private readonly tally = new Map<HarnessSteerStatus, number>();
  private observer: SteerObserver | undefined;

  steer(text: unknown): Promise<HarnessSteerOutcome> {
    if (typeof text !== 'string' || text.trim() === '') {
      return Promise.reject(new HarnessConfigError('steer(text) needs a non-empty string.', { field: 'text' }));
    }
    if (text.length > MAX_STEER_CHARS) {
      return Promise.reject(new HarnessConfigError(`steer(text) takes at most ${MAX_STEER_CHARS} characters.`, { field: 'text' }));
    }
    this.nextId += 1;
    const message = { id: `steer_${this.nextId}`, text };
    return new Promise<HarnessSteerOutcome>((resolve) => {
      let settled = false;
      const waiting: Waiting = {
        message,
        settle: (outcome) => {
          if (settled) return;
          settled = true;
          this.settle(resolve, outcome, text.length);
        },
      };
      if (this.closing !== undefined) waiting.settle({ id: message.id, ...this.closing });
      else if (this.waiting.length >= MAX_PENDING_STEERS) {
        waiting.settle({ id: message.id, status: 'refused', message: `More than ${MAX_PENDING_STEERS} inputs are waiting for the backend.` });
      } else {
        this.waiting.push(waiting);
        void this.pump();
      }
    });
  }

  checkUnbound(): void {
    if (this.bound) {
      throw new HarnessConfigError('This steering handle already served a turn; create one per turn with createSteering().', {
        field: 'options.steering',
      });
    }
  }

  bind(observer: SteerObserver): TurnSteering {
    this.checkUnbound();
    this.bound = true;
    this.observer = observer;
    const channel: ExecutionSteering = {
      receive: (deliver) => {
        if (typeof deliver !== 'function' || this.deliver !== undefined || this.closing !== undefined) return () => undefined;
        this.deliver = deliver;
        void this.pump();
        return () => this.close('turn_finished', 'The backend stopped taking input before this one was delivered.');
      },
    };
    return {
      channel,
      close: (status, message) => this.close(status, message),
      finish: () => {
        this.close('turn_finished', 'The turn ended before this input was delivered.');
        this.inFlight?.settle({
          id: this.inFlight.message.id,
          status: 'turn_finished',
          message: 'The turn ended while the backend was taking this input; it may not have been used.',
        });
      },
      counts: () => Object.fromEntries(this.tally) as Partial<Record<HarnessSteerStatus, number>>,
    };
  }

  private close(status: Closing['status'], message: string): void {
    if (this.closing !== undefined) return;
    this.closing = { status, message };
    this.deliver = undefined;
    for (const waiting of this.waiting.splice(0)) waiting.settle({ id: waiting.message.id, status, message });
  }

  private async pump(): Promise<void> {
    while (this.inFlight === undefined && this.deliver !== undefined && this.closing === undefined) {
      const next = this.waiting.shift();
      if (next === undefined) return;
      this.inFlight = next;
      const deliver = this.deliver;
      let outcome: HarnessSteerOutcome;
      try {
        await deliver({ ...next.message });
        outcome = { id: next.message.id, status: 'delivered' };
      } catch (error) {
        outcome = { id: next.message.id, status: 'refused', message: `The backend refused the input: ${describeError(error, 500)}` };
      }
      next.settle(outcome);
      this.inFlight = undefined;
    }
  }

  private settle(resolve: (outcome: HarnessSteerOutcome) => void, outcome: HarnessSteerOutcome, chars: number): void {
    resolve(outcome);
    this.tally.set(outcome.status, (this.tally.get(outcome.status) ?? 0) + 1);
    try {
      this.observer?.(outcome, chars);
    } catch {
      // Observing must never affect steering.
    }
  }
}

const states = new WeakMap<object, SteeringState>();

/** Makes a new handle; see `createSteering`. */
export function newSteeringHandle(): HarnessSteering {
  const state = new SteeringState();
  const handle: HarnessSteering = Object.freeze({ steer: (text: string) => state.steer(text) });
  states.set(handle, state);
  return handle;
}

/**
 * Binds a handle from `createSteering()` to one run.
 * @throws HarnessConfigError for anything else, or a handle that already served a turn.
 */
export function bindSteering(handle: unknown, observer: SteerObserver): TurnSteering {
  return stateOf(handle).bind(observer);
}

/**
 * Checks a handle before anything irreversible happens (a resume claim).
 * @throws HarnessConfigError like {@link bindSteering}.
 */
export function checkSteering(handle: unknown): void {
  stateOf(handle).checkUnbound();
}

function stateOf(handle: unknown): SteeringState {
  const state = typeof handle === 'object' && handle !== null ? states.get(handle) : undefined;
  if (state === undefined) {
    throw new HarnessConfigError('options.steering must be a handle made by createSteering().', { field: 'options.steering' });
  }
  return state;
}
