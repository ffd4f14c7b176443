import { AnswerText } from '../../execution/answer-cap.js';
import type { ExecutionStreamEvent } from '../../execution/types.js';

/** Where a turn stopped: an approval the engine waits on (the first one queued), or its end. */
export type SessionTurnStop<A, E> = { kind: 'approval'; approval: A } | { kind: 'ended'; ending: E };

/**
 * One turn in a live session. The protocol feeds it what the engine says (`emit`, `ask`, `end`);
 * the session driver follows it (`next`) and answers its approvals. It outlives an `execute`
 * call that ends `awaiting_approval`: the resuming call attaches its listener and a fresh answer.
 *
 * `A` is the protocol's open approval request, `E` how its turn ends.
 */
export class SessionTurn<A, E> {
  /** Where events go now (the current `execute` call's `onEvent`). */
  onEvent: ((event: ExecutionStreamEvent) => void) | undefined;
  /** The answer text streamed during the current `execute` call, capped at `MAX_ANSWER_CHARS`. */
  answerText = new AnswerText();
  /** Approval requests not yet answered, in arrival order. */
  readonly approvals: A[] = [];
  /** Titles of the approval requests refused in this turn. */
  readonly rejected: string[] = [];
  // ES private names: a protocol's subclass may use these names for its own members.
  #ending: { value: E } | undefined;
  #wake: (() => void) | undefined;

  /**
   * Reports an engine event to the current listener; a throwing listener is ignored. A
   * `text_delta` goes into `answerText` first and only its part under the cap is reported.
   */
  emit(event: ExecutionStreamEvent): void {
    let shown = event;
    if (event.type === 'text_delta') {
      const kept = this.answerText.append(event.text);
      if (kept === '') return;
      if (kept.length < event.text.length) shown = { type: 'text_delta', text: kept };
    }
    try {
      this.onEvent?.(shown);
    } catch {
      // The harness guards its own listener; a caller's faulty one never breaks the turn.
    }
  }

  /** Queues an approval request of the engine. */
  ask(approval: A): void {
    this.approvals.push(approval);
    this.#notify();
  }

  /** Removes an approval request from the queue (it was answered); false when it was not queued. */
  take(approval: A): boolean {
    const index = this.approvals.indexOf(approval);
    if (index === -1) return false;
    this.approvals.splice(index, 1);
    return true;
  }

  /** Records the end of the turn; the first end counts. */
  end(ending: E): void {
    this.#ending ??= { value: ending };
    this.#notify();
  }

  /** True once the turn ended. */
  get finished(): boolean {
    return this.#ending !== undefined;
  }

  /** True while the turn runs and an approval request of it waits for an answer. */
  get awaitingApproval(): boolean {
    return this.#ending === undefined && this.approvals.length > 0;
  }

  /** The next stop: a queued approval request first, else the end of the turn; `aborted` when `signal` aborts first. */
  async next(signal?: AbortSignal): Promise<SessionTurnStop<A, E> | 'aborted'> {
    for (;;) {
      const approval = this.approvals[0];
      if (approval !== undefined && this.#ending === undefined) return { kind: 'approval', approval };
      if (this.#ending !== undefined) return { kind: 'ended', ending: this.#ending.value };
      if (signal?.aborted) return 'aborted';
      await new Promise<void>((resolve) => {
        const onAbort = () => resolve();
        this.#wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      this.#wake = undefined;
    }
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
