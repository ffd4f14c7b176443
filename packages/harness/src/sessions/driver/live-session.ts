import type { PooledSession } from '../session-pool.js';
import type { ProtocolSession } from './session-protocol.js';

/** A protocol's session as the driver pools it: with the turn running (or paused) in it and an id a paused turn's continuation names. */
export class LiveSession<S extends ProtocolSession, T extends { readonly awaitingApproval: boolean; readonly finished: boolean }> implements PooledSession {
  /** Tells this session from a later one under the same key. */
  readonly instanceId: string = globalThis.crypto.randomUUID();
  /** The running (or paused, or last) turn. */
  turn: T | undefined;

  constructor(readonly session: S) {}

  /** False once the session ended. */
  get alive(): boolean {
    return this.session.alive;
  }

  /** True while the turn waits for an approval answer (the pool keeps such a session). */
  get awaitingApproval(): boolean {
    return this.turn?.awaitingApproval === true;
  }

  /** Settles when the session ended. */
  get exited(): Promise<unknown> {
    return this.session.exited;
  }

  /** Ends the session. */
  dispose(): Promise<unknown> {
    return this.session.dispose();
  }
}
