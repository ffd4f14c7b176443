// Live events through the worker bridge: the runner's events go to the orchestrator as event
// messages ahead of the result, when (and only when) the orchestrator streams the turn.
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessResult } from '../core/types/result.js';
import type { HarnessStreamEvent } from '../core/types/runtime.js';
import { MAX_ANSWER_CHARS } from '../execution/answer-cap.js';
import type { ExecutionStreamEvent } from '../execution/types.js';
import { cleanupTempDirs, fixtureExecutable, tempDir, turnInput } from '../local/__fixtures__/test-helpers.js';
import { AgentRelayExecutionAdapter } from '../agent-relay/execution-adapter/agent-relay-execution-adapter.js';
import { AGENT_RELAY_EXECUTION_EVENT_TYPE, AGENT_RELAY_EXECUTION_RESULT_TYPE, MAX_EVENTS_PER_MESSAGE } from '../agent-relay/protocol/message-types.js';
import type { RelaySendInput } from '../agent-relay/protocol/relay-transport.js';
import { createMemoryRelay, type MemoryRelay, type MemoryRelayOptions } from '../testing/memory-relay.js';
import type { CliRunner } from './cli-runner.js';
import { createClaudeCliRunner } from './cli-runners.js';
import { createRelayWorkerBridge } from './relay-worker-bridge.js';
import type { RelayWorkerBridge } from './relay-worker-bridge-options.js';

const bridges: RelayWorkerBridge[] = [];
afterEach(async () => {
  await Promise.all(bridges.splice(0).map((bridge) => bridge.dispose()));
  cleanupTempDirs();
});

async function setup(
  runner: CliRunner,
  options: MemoryRelayOptions = {},
  maxReplyChars?: number,
): Promise<{ relay: MemoryRelay; harness: ReturnType<typeof createHarness> }> {
  const relay = createMemoryRelay(options);
  bridges.push(await createRelayWorkerBridge({ relay, channelId: 'specialists', workerName: 'worker', runner, timeoutMs: 20_000, maxReplyChars }));
  const adapter = new AgentRelayExecutionAdapter({ relay, workerName: 'worker', orchestratorName: 'orchestrator', timeoutMs: 20_000, maxReplyChars });
  return { relay, harness: createHarness({ backend: adapter }) };
}

async function collect(stream: AsyncIterable<HarnessStreamEvent>): Promise<{ live: HarnessStreamEvent[]; result: HarnessResult }> {
  const live: HarnessStreamEvent[] = [];
  let result: HarnessResult | undefined;
  for await (const event of stream) {
    if (event.type === 'result') result = event.result;
    else if (event.type === 'text_delta' || event.type === 'tool_activity' || event.type === 'plan_update') live.push(event);
  }
  return { live, result: result! };
}

/** The bodies the worker sent, parsed. */
const fromWorker = (relay: MemoryRelay) =>
  relay.sent.filter((message) => message.from === 'worker').map((message) => JSON.parse(message.text) as { type: string; seq?: number; events?: ExecutionStreamEvent[] });

/** A runner that reports `events` and then answers `text`; events it reports after answering are ignored. */
function scriptedRunner(events: ExecutionStreamEvent[], text: string): CliRunner & { late: () => void } {
  let report: ((event: ExecutionStreamEvent) => void) | undefined;
  return {
    id: 'scripted',
    async run({ onEvent }) {
      report = onEvent;
      for (const event of events) onEvent?.(event);
      await Promise.resolve();
      return { backendId: 'scripted', status: 'completed', output: { text } };
    },
    late: () => report?.({ type: 'text_delta', text: 'LATE' }),
  };
}

describe('worker bridge: live events', () => {
  it('streams a real CLI run (fake Claude Code in stream-json) through the relay: tool activity and text before the result', async () => {
    const home = tempDir();
    const claude = fixtureExecutable(home, 'claude', 'fake-claude.mjs');
    const { relay, harness } = await setup(createClaudeCliRunner({ command: claude, env: { HOME: home } }));
    const { live, result } = await collect(harness.streamTurn(turnInput('FAKE_TOOL please check')));
    expect(result.outcome).toBe('completed');
    expect(live.some((event) => event.type === 'tool_activity' && event.name === 'Bash')).toBe(true);
    expect(live.some((event) => event.type === 'plan_update')).toBe(true);
    const text = live.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');
    expect(text).toBe(result.assistantMessage?.text);
    const types = fromWorker(relay).map((body) => body.type);
    expect(types.at(-1)).toBe(AGENT_RELAY_EXECUTION_RESULT_TYPE);
    expect(types.slice(0, -1).every((type) => type === AGENT_RELAY_EXECUTION_EVENT_TYPE)).toBe(true);
    expect(types.length).toBeGreaterThan(1);
  });

  it('sends no event message when the orchestrator does not stream', async () => {
    const home = tempDir();
    const claude = fixtureExecutable(home, 'claude', 'fake-claude.mjs');
    const { relay, harness } = await setup(createClaudeCliRunner({ command: claude, env: { HOME: home } }));
    const result = await harness.runTurn(turnInput('FAKE_TOOL please check'));
    expect(result.outcome).toBe('completed');
    expect(fromWorker(relay).map((body) => body.type)).toEqual([AGENT_RELAY_EXECUTION_RESULT_TYPE]);
  });

  it('batches many events into numbered messages of at most 256, merging adjacent text, and sends nothing after the result', async () => {
    const events: ExecutionStreamEvent[] = [];
    for (let index = 0; index < 600; index += 1) {
      events.push({ type: 'text_delta', text: 'x' });
      events.push({ type: 'tool_activity', phase: 'updated', toolCallId: `t${index}`, name: 'step' });
    }
    const runner = scriptedRunner(events, 'x'.repeat(600));
    const { relay, harness } = await setup(runner);
    const { live, result } = await collect(harness.streamTurn(turnInput('go')));
    runner.late();
    await new Promise<void>((resolve) => setImmediate(resolve));
    const bodies = fromWorker(relay);
    const eventMessages = bodies.filter((body) => body.type === AGENT_RELAY_EXECUTION_EVENT_TYPE);
    expect(eventMessages.map((body) => body.seq)).toEqual(eventMessages.map((_, index) => index));
    expect(eventMessages.every((body) => (body.events?.length ?? 0) <= MAX_EVENTS_PER_MESSAGE)).toBe(true);
    expect(eventMessages.flatMap((body) => body.events ?? [])).toHaveLength(1200);
    expect(bodies.at(-1)?.type).toBe(AGENT_RELAY_EXECUTION_RESULT_TYPE);
    expect(live.filter((event) => event.type === 'tool_activity')).toHaveLength(600);
    expect(live.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('')).toBe('x'.repeat(600));
    expect(result.assistantMessage?.text).toBe('x'.repeat(600));
    expect(JSON.stringify(bodies)).not.toContain('LATE');
  });

  it('merges a flood of one-character deltas in linear time, and bounds what waits to be sent', async () => {
    const flood: ExecutionStreamEvent[] = Array.from({ length: 200_000 }, () => ({ type: 'text_delta', text: 'y' }));
    const { harness } = await setup(scriptedRunner(flood, 'y'.repeat(200_000)));
    const { live, result } = await collect(harness.streamTurn(turnInput('go')));
    expect(live.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('')).toBe('y'.repeat(200_000));
    expect(result.assistantMessage?.text).toHaveLength(200_000);

    // 25 deltas of 200,000 characters at once (5 MB): what does not fit in the 4 MB the sender holds
    // is dropped, text after it too, and the result completes the answer — up to MAX_ANSWER_CHARS,
    // where the relay adapter cuts every answer.
    const piece = 'z'.repeat(200_000);
    const answer = piece.repeat(25);
    const pieces: ExecutionStreamEvent[] = Array.from({ length: 25 }, () => ({ type: 'text_delta', text: piece }));
    const { relay, harness: second } = await setup(scriptedRunner(pieces, answer), {}, 8_000_000);
    const streamed = await collect(second.streamTurn(turnInput('go')));
    const deltas = streamed.live.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));
    expect(streamed.result.assistantMessage?.text).toBe(answer.slice(0, MAX_ANSWER_CHARS));
    expect(deltas.join('')).toBe(answer.slice(0, MAX_ANSWER_CHARS));
    const sent = fromWorker(relay).filter((body) => body.type === AGENT_RELAY_EXECUTION_EVENT_TYPE);
    const sentChars = sent.flatMap((body) => body.events ?? []).reduce((sum, event) => sum + (event.type === 'text_delta' ? event.text.length : 0), 0);
    expect(sentChars).toBeGreaterThan(3_000_000);
    expect(sentChars).toBeLessThan(4_194_304);
    expect(sent.every((body) => JSON.stringify(body).length < 263_000)).toBe(true);
  });

  it('completes the answer from the result when an event message is lost on the way', async () => {
    let eventMessages = 0;
    let firstSent!: () => void;
    const firstMessageGone = new Promise<void>((resolve) => (firstSent = resolve));
    const intercept = (message: RelaySendInput) => {
      if (!message.text.includes(AGENT_RELAY_EXECUTION_EVENT_TYPE)) return 'deliver' as const;
      eventMessages += 1;
      if (eventMessages > 1) return 'deliver' as const;
      firstSent();
      return 'drop' as const;
    };
    const runner: CliRunner = {
      id: 'slow-writer',
      async run({ onEvent }) {
        onEvent?.({ type: 'text_delta', text: 'Hello' });
        await firstMessageGone; // The first batch went out (and was lost) before the rest is written.
        onEvent?.({ type: 'text_delta', text: ', world' });
        onEvent?.({ type: 'plan_update', entries: [{ content: 'greet', status: 'completed' }] });
        return { backendId: 'slow-writer', status: 'completed', output: { text: 'Hello, world' } };
      },
    };
    const { harness } = await setup(runner, { intercept });
    const { live, result } = await collect(harness.streamTurn(turnInput('go')));
    expect(eventMessages).toBe(2);
    expect(live.map((event) => event.type)).toEqual(['plan_update', 'text_delta']);
    expect(live[1]).toMatchObject({ text: 'Hello, world' });
    expect(result.assistantMessage?.text).toBe('Hello, world');
  });
});
