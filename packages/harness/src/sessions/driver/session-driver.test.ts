// The session driver over an in-process protocol (no child process, no JSON-RPC): the shape the
// Claude Agent SDK takes, where the engine is a query in this process and an approval is a
// callback waiting for its answer. What the protocol's engine does is read from the prompt.
import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_CHARS } from '../../execution/answer-cap.js';
import type { ExecutionCapabilities, ExecutionStreamEvent } from '../../execution/types.js';
import { CodexAppServerAdapter, CodexAppServerExecutionAdapter, ClaudeCodeSessionAdapter, ClaudeCodeSessionExecutionAdapter } from '../../index.js';
import { executionRequest } from '../../local/__fixtures__/test-helpers.js';
import { createSessionAdapter, SessionTurn, type ProtocolSession, type SessionProtocol } from './index.js';

interface Ask {
  key: string;
  title: string;
  resolve: (answer: string) => void;
}
type End = { kind: 'done'; text: string } | { kind: 'gone' };
class Turn extends SessionTurn<Ask, End> {}

/** A query running in this process. */
class Query implements ProtocolSession {
  alive = true;
  turns = 0;
  cancels = 0;
  readonly answers: string[] = [];
  turn: Turn | undefined;
  private stop!: () => void;
  readonly exited = new Promise<void>((resolve) => (this.stop = resolve));

  dispose(): Promise<void> {
    this.alive = false;
    this.turn?.end({ kind: 'gone' });
    this.stop();
    return this.exited;
  }

  /** Runs the prompt: `ASK key` waits for an approval, `HANG` and `HANG_HARD` never end on their own, `BIG` streams past the cap, `STEER` waits for input. */
  async run(turn: Turn, prompt: string): Promise<void> {
    this.turn = turn;
    this.turns += 1;
    if (prompt.startsWith('ASK ')) {
      for (const key of prompt.slice(4).split(',')) {
        const answer = await new Promise<string>((resolve) => turn.ask({ key, title: `touch ${key}`, resolve }));
        this.answers.push(`${key}:${answer}`);
      }
      turn.emit({ type: 'text_delta', text: 'ran' });
      turn.end({ kind: 'done', text: this.answers.join(' ') });
    } else if (prompt === 'BIG') {
      for (let i = 0; i < 5; i += 1) turn.emit({ type: 'text_delta', text: 'x'.repeat(MAX_ANSWER_CHARS / 4) });
      turn.end({ kind: 'done', text: '' });
    } else if (!['HANG', 'HANG_HARD', 'STEER'].includes(prompt)) {
      turn.emit({ type: 'text_delta', text: `turn ${this.turns}` });
      turn.end({ kind: 'done', text: '' });
    }
  }
}

function protocol(overrides: Partial<SessionProtocol<Query, Ask, End, Turn>> = {}, pausedTurn: 'cancel' | 'refuse' = 'refuse') {
  const opened: Query[] = [];
  const capabilities: ExecutionCapabilities = {
    toolUse: 'native-iterative',
    structuredToolCalls: false,
    continuationSupport: 'opaque-resume',
    approvalInterrupts: 'native',
    traceDepth: 'standard',
    attachments: false,
    streaming: true,
    steer: true,
    maxContextStrategy: 'large',
  };
  const spec: SessionProtocol<Query, Ask, End, Turn> = {
    backendId: 'in-process',
    label: 'In-process',
    continuationKind: 'in-process.session',
    settings: { timeoutMs: 5_000, cancelGraceMs: 50, pausedTurn },
    describeCapabilities: () => capabilities,
    place: ({ request }) => ({ key: JSON.stringify([request.sessionId ?? request.turnId]), ephemeral: request.sessionId === undefined }),
    open: () => {
      const query = new Query();
      opened.push(query);
      return Promise.resolve(query);
    },
    createTurn: () => new Turn(),
    startTurn: (query, turn, context) => {
      void query.run(turn, context.request.message.text);
      return Promise.resolve();
    },
    describeApproval: (_query, _turn, ask) => ({
      approvalKey: ask.key,
      request: { title: ask.title, kind: 'command', command: ask.title },
      event: { type: 'approval_requested', approvalKey: ask.key, title: ask.title },
      approvalRequest: { reason: `In-process asks: ${ask.title}` },
    }),
    answerApproval: (_query, _turn, ask, decision, by) => {
      ask.resolve(`${decision}/${by}`);
      return true;
    },
    // A cancel ends the prompt (a test that needs an engine ignoring it overrides this).
    cancel: (query, turn) => {
      query.cancels += 1;
      queueMicrotask(() => turn.end({ kind: 'done', text: 'cancelled' }));
    },
    steer: (_query, turn, text) => {
      turn.emit({ type: 'text_delta', text: `steered: ${text}` });
      turn.end({ kind: 'done', text });
    },
    finish: (_query, turn, ending, context) => ({
      result: context.report.result(
        ending.kind === 'gone'
          ? { status: 'failed', error: { code: 'backend_execution_error', message: 'gone', retryable: true } }
          : { status: 'completed', output: { text: turn.answerText.text() }, metadata: { answers: ending.text, ...(turn.answerText.truncated ? { answerTruncated: true } : {}) } },
        ending.kind === 'gone' ? 'failure' : 'model_completed',
      ),
      engineGone: ending.kind === 'gone',
    }),
    continuation: (_query, _turn, context) => ({ kind: 'in-process.session', continuationId: context.key }),
    ...overrides,
  };
  return { spec, opened };
}

describe('the session driver over an in-process protocol', () => {
  it('runs turns in one live session per key, caps the answer and streams no more than the cap', async () => {
    const { spec, opened } = protocol();
    const adapter = createSessionAdapter(spec);
    const first = await adapter.execute(executionRequest('hi', { sessionId: 's' }));
    const second = await adapter.execute(executionRequest('hi', { sessionId: 's' }));
    expect([first.output?.text, second.output?.text]).toEqual(['turn 1', 'turn 2']);
    expect(opened).toHaveLength(1);
    const streamed: string[] = [];
    const big = await adapter.execute(executionRequest('BIG', { sessionId: 'big' }), { onEvent: (event) => void (event.type === 'text_delta' && streamed.push(event.text)) });
    expect(big.output?.text).toHaveLength(MAX_ANSWER_CHARS);
    expect(streamed.join('')).toHaveLength(MAX_ANSWER_CHARS);
    expect(big.metadata).toMatchObject({ answerTruncated: true });
    await adapter.dispose();
    expect(opened.every((query) => !query.alive)).toBe(true);
  });

  it('pauses on an approval and answers it in the same live session; an unreadable or missing decision refuses', async () => {
    const { spec, opened } = protocol();
    const adapter = createSessionAdapter(spec);
    const events: ExecutionStreamEvent[] = [];
    const paused = await adapter.execute(executionRequest('ASK constructor,__proto__', { sessionId: 's' }), { onEvent: (event) => events.push(event) });
    expect(paused).toMatchObject({ status: 'awaiting_approval', approvalRequest: { approvalKey: 'constructor', reason: 'In-process asks: touch constructor' } });
    expect(events.at(-1)).toMatchObject({ type: 'approval_requested', approvalKey: 'constructor' });
    const resume = (continuation: typeof paused.continuation, decisions: string) =>
      adapter.execute({ ...executionRequest('x', { sessionId: 's' }), continuation, resume: { type: 'approval', decisions: JSON.parse(decisions) as Record<string, 'approved'> } });
    const again = await resume(paused.continuation, '{"constructor":"approved"}');
    expect(again).toMatchObject({ status: 'awaiting_approval', approvalRequest: { approvalKey: '__proto__' } });
    // The request check never copies an own `__proto__` key: no decision, which refuses.
    const done = await resume(again.continuation, '{"__proto__":"approved"}');
    expect(done).toMatchObject({ status: 'completed', output: { text: 'ran' }, metadata: { answers: 'constructor:approved/person __proto__:rejected/person' } });
    expect(opened).toHaveLength(1);
    // The same continuation again, or in another adapter: the request is gone.
    const stale = await resume(paused.continuation, '{"constructor":"approved"}');
    expect(stale).toMatchObject({ status: 'failed', error: { code: 'other', metadata: { reason: 'continuation_invalid' } } });
    const elsewhere = await createSessionAdapter(protocol().spec).execute({ ...executionRequest('x'), continuation: paused.continuation, resume: { type: 'approval', decisions: { constructor: 'approved' as const } } });
    expect(elsewhere).toMatchObject({ status: 'failed', error: { metadata: { reason: 'continuation_invalid' } } });
    await adapter.dispose();
  });

  it("lets the host's rules answer what they decide; a throwing rule leaves it to a person", async () => {
    const adapter = createSessionAdapter(protocol().spec);
    const ruled = await adapter.execute(executionRequest('ASK a,b'), { onPermissionRequest: (asked) => (asked.title === 'touch a' ? 'approve' : 'reject') });
    expect(ruled).toMatchObject({ status: 'completed', metadata: { answers: 'a:approved/host b:rejected/host' } });
    expect(ruled.trace?.events).toContainEqual(expect.objectContaining({ type: 'note', data: { message: "Permission granted by the host's rules: touch a" } }));
    const thrown = await adapter.execute(executionRequest('ASK c'), {
      onPermissionRequest: () => {
        throw new Error('rules broke');
      },
    });
    expect(thrown.status).toBe('awaiting_approval');
    await adapter.dispose();
  });

  it('refuses a new turn while one is paused (pausedTurn refuse), or cancels the paused one (cancel)', async () => {
    const refusing = createSessionAdapter(protocol().spec);
    await refusing.execute(executionRequest('ASK a', { sessionId: 's' }));
    expect(await refusing.execute(executionRequest('hi', { sessionId: 's' }))).toMatchObject({ status: 'failed', error: { metadata: { reason: 'approval_pending' } } });
    const { spec, opened } = protocol({}, 'cancel');
    const cancelling = createSessionAdapter(spec);
    await cancelling.execute(executionRequest('ASK a', { sessionId: 's' }));
    const next = await cancelling.execute(executionRequest('hi', { sessionId: 's' }));
    expect(next).toMatchObject({ status: 'completed', output: { text: 'turn 2' } });
    expect(opened[0]!.answers).toEqual(['a:rejected/cancel']);
    await Promise.all([refusing.dispose(), cancelling.dispose()]);
  });

  it('cancels on the signal and keeps the session; a session that ignores the cancel is stopped after the grace time', async () => {
    const { spec, opened } = protocol();
    const adapter = createSessionAdapter(spec);
    const controller = new AbortController();
    const cancelled = await adapter.execute(executionRequest('HANG', { sessionId: 's' }), { signal: controller.signal, onContinuation: () => controller.abort() });
    expect(cancelled).toMatchObject({ status: 'failed', error: { code: 'other', metadata: { reason: 'cancelled' } }, metadata: { cancelled: true }, continuation: { continuationId: '["s"]' } });
    expect(opened[0]).toMatchObject({ alive: true, cancels: 1 });
    const stubborn = protocol({ cancel: (query) => void (query.cancels += 1) });
    const timing = createSessionAdapter({ ...stubborn.spec, settings: { ...stubborn.spec.settings, timeoutMs: 30 } });
    const timedOut = await timing.execute(executionRequest('HANG_HARD', { sessionId: 's' }));
    expect(timedOut).toMatchObject({ status: 'failed', error: { code: 'timeout', retryable: true } });
    expect(stubborn.opened[0]).toMatchObject({ alive: false, cancels: 1 });
    await Promise.all([adapter.dispose(), timing.dispose()]);
  });

  it('hands steering input to the running turn', async () => {
    const adapter = createSessionAdapter(protocol().spec);
    const steer = { receive: (deliver: (message: { id: string; text: string }) => Promise<void> | void) => (void deliver({ id: '1', text: 'also this' }), () => undefined) };
    expect(await adapter.execute(executionRequest('STEER'), { steer })).toMatchObject({ status: 'completed', output: { text: 'steered: also this' } });
    await adapter.dispose();
  });

  it('turns a session that cannot be opened, a throwing listener and bad requests into results, never rejections', async () => {
    const failing = createSessionAdapter(protocol({ open: () => Promise.reject(new Error('no engine here')) }).spec);
    expect(await failing.execute(executionRequest('hi'))).toMatchObject({
      status: 'failed',
      error: { code: 'backend_execution_error', retryable: false, message: 'In-process: no engine here', metadata: { errorCode: 'HARNESS_ERR_BACKEND_UNAVAILABLE' } },
    });
    const adapter = createSessionAdapter(protocol().spec);
    const thrown = await adapter.execute(executionRequest('hi'), {
      onEvent: () => {
        throw new Error('listener broke');
      },
    });
    expect(thrown.status).toBe('completed');
    expect((await adapter.execute({ assistantId: 1 } as never)).status).toBe('failed');
    await adapter.dispose();
    expect(await adapter.execute(executionRequest('hi'))).toMatchObject({ status: 'failed', error: { metadata: { reason: 'session_disposed' } } });
  });

  it('keeps the old adapter names as deprecated aliases of the renamed classes', () => {
    expect(CodexAppServerAdapter).toBe(CodexAppServerExecutionAdapter);
    expect(ClaudeCodeSessionAdapter).toBe(ClaudeCodeSessionExecutionAdapter);
    const adapter: CodexAppServerAdapter = new CodexAppServerAdapter();
    expect(adapter).toBeInstanceOf(CodexAppServerExecutionAdapter);
  });
});
