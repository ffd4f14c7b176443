// The worker bridge against hostile senders and runners over the in-memory relay (issue 22, items
// 12 and 13): names and ids built to collide, control characters, results JSON cannot carry. The
// bridge never crashes, never lets one sender touch another's run, and always replies with a
// result the orchestrator can decode.
import { afterEach, describe, expect, it } from 'vitest';
import { cyclic, deeplyNested, throwingGetter, throwingProxy } from '../core/__fixtures__/hostile-values.js';
import type { ExecutionResult } from '../execution/types.js';
import { decodeExecutionResultMessage } from '../agent-relay/protocol/execution-result-message.js';
import { encodeExecutionCancelMessage } from '../agent-relay/protocol/execution-cancel-message.js';
import { createMemoryRelay, type MemoryRelay } from '../testing/memory-relay.js';
import type { CliRunner } from './cli-runner.js';
import { eventLog } from './__fixtures__/bridge-events.js';
import { fullRequest, requestBody } from './__fixtures__/bridge-test-helpers.js';
import { createRelayWorkerBridge } from './relay-worker-bridge.js';
import type { RelayWorkerBridge, RelayWorkerBridgeConfig } from './relay-worker-bridge-options.js';

const bridges: RelayWorkerBridge[] = [];
afterEach(async () => {
  await Promise.all(bridges.splice(0).map((bridge) => bridge.dispose({ timeoutMs: 0 })));
});

/** A runner that runs until its run is stopped, then answers `failed` (as a CLI killed by a cancel would). */
const untilStopped: CliRunner = {
  id: 'until-stopped',
  run: ({ signal }) =>
    new Promise<ExecutionResult>((resolve) => {
      signal.addEventListener('abort', () => resolve({ backendId: 'until-stopped', status: 'failed', error: { code: 'other', message: 'stopped' } }), { once: true });
    }),
};

async function startBridge(relay: MemoryRelay, config: Partial<RelayWorkerBridgeConfig> = {}) {
  const log = eventLog();
  const bridge = await createRelayWorkerBridge({ relay, channelId: 'specialists', workerName: 'worker', runner: untilStopped, timeoutMs: 20_000, onEvent: log.onEvent, ...config });
  bridges.push(bridge);
  return { bridge, log };
}

const cancelBody = (requestId: string) =>
  encodeExecutionCancelMessage({ requestId, turnId: 'turn-1', threadId: 'turn-1', sentAt: new Date().toISOString(), reason: 'cancelled' });

/** A request body with `requestId` spliced in as raw JSON text (so any characters reach the wire). */
const requestWithId = (requestId: string) => {
  const { requestId: placeholder, text } = requestBody(fullRequest('x'));
  return text.replace(JSON.stringify(placeholder), JSON.stringify(requestId));
};

describe('requests and cancels of different senders (issue 22, item 13)', () => {
  it('the collision of the issue: a request from "a\\nb" with id "c" and a cancel from "a" for id "b\\nc" are both refused, nothing runs', async () => {
    const relay = createMemoryRelay();
    const { bridge, log } = await startBridge(relay);
    relay.deliver({ from: 'a\nb', target: 'worker', text: requestWithId('c') });
    relay.deliver({ from: 'a', target: 'worker', text: cancelBody('b\nc') });
    relay.deliver({ from: 'a', target: 'worker', text: requestWithId('b\nc') });
    await log.waitForCount('message_ignored', 3);
    expect(bridge.stats()).toMatchObject({ running: 0, queued: 0, cancelled: 0, ignored: { malformed: 3 } });
    expect(log.events.filter((event) => event.type === 'message_ignored').map((event) => event.detail)).toEqual([
      'The sender name holds control characters.',
      expect.stringContaining('control characters'),
      expect.stringContaining('control characters'),
    ]);
    expect(log.count('request_received')).toBe(0);
  });

  it('keeps runs with the same request id from two senders apart: each is a run, and a cancel stops only its sender\'s', async () => {
    const relay = createMemoryRelay();
    const { bridge, log } = await startBridge(relay);
    const { requestId, text } = requestBody(fullRequest('x'), { requestId: 'same' });
    const alphaReply = relay.nextMessage('alpha');
    relay.deliver({ from: 'alpha', target: 'worker', text });
    relay.deliver({ from: 'beta', target: 'worker', text });
    await log.waitForCount('request_started', 2);
    expect(bridge.stats()).toMatchObject({ running: 2, ignored: { duplicate: 0 } });

    relay.deliver({ from: 'alpha', target: 'worker', text: cancelBody(requestId) });
    const alpha = decodeExecutionResultMessage((await alphaReply).text);
    expect(alpha.ok && alpha.message.requestId).toBe('same');
    await log.waitFor('request_finished', (event) => event.from === 'alpha');
    expect(bridge.stats()).toMatchObject({ running: 1, cancelled: 1 });

    // Alpha's run is gone: its second cancel finds nothing, and beta's run goes on.
    relay.deliver({ from: 'alpha', target: 'worker', text: cancelBody(requestId) });
    expect(await log.waitFor('message_ignored')).toMatchObject({ reason: 'unknown_cancel', from: 'alpha' });
    expect(bridge.stats()).toMatchObject({ running: 1, cancelled: 1 });

    const betaReply = relay.nextMessage('beta');
    relay.deliver({ from: 'beta', target: 'worker', text: cancelBody(requestId) });
    expect((await betaReply).target).toBe('beta');
    expect(bridge.stats().cancelled).toBe(2);
  });
});

describe('runner results JSON cannot carry (issue 22, item 12)', () => {
  const completedWith = (extra: Record<string, unknown>) => (): ExecutionResult => ({ backendId: 'r', status: 'completed', output: { text: 'ok' }, ...extra });
  const cases: [label: string, result: () => ExecutionResult][] = [
    ['output.structured nested 400,000 levels deep', completedWith({ output: { text: 'ok', structured: deeplyNested(400_000) } })],
    ['metadata nested 400,000 levels deep', completedWith({ metadata: deeplyNested(400_000) })],
    ['a circular metadata, and a continuation with a BigInt', completedWith({ metadata: cyclic(), continuation: { continuationId: 's', state: { n: 1n } } })],
    ['a continuation nested 400,000 levels deep', completedWith({ continuation: { continuationId: 's', state: deeplyNested(400_000) } })],
    ['a metadata getter that throws', completedWith({ metadata: throwingGetter('x') })],
    ['a metadata Proxy whose traps throw', completedWith({ metadata: throwingProxy() })],
  ];

  it.each(cases)('replies failed / invalid_backend_output to a result with %s', async (_label, make) => {
    const relay = createMemoryRelay();
    const { bridge } = await startBridge(relay, { runner: { id: 'hostile', run: () => Promise.resolve(make()) } });
    const reply = relay.nextMessage('orchestrator');
    relay.deliver({ from: 'orchestrator', target: 'worker', text: requestBody(fullRequest('x')).text });
    const decoded = decodeExecutionResultMessage((await reply).text);
    expect(decoded.ok && decoded.message.executionResult).toMatchObject({
      status: 'failed',
      error: { code: 'invalid_backend_output', message: expect.stringContaining('cannot be sent') },
      metadata: { worker: { name: 'worker', runner: 'hostile' } },
    });
    expect(bridge.stats()).toMatchObject({ finished: 1, failed: 1, replyFailures: 0 });
  });
});

describe('a request nested 400,000 levels deep from the orchestrator', () => {
  it('is answered with a failed result, not a crash', async () => {
    const relay = createMemoryRelay();
    let ran = false;
    await startBridge(relay, { runner: { id: 'echo', run: () => ((ran = true), Promise.resolve({ backendId: 'echo', status: 'completed', output: { text: 'ok' } })) } });
    const { text } = requestBody(fullRequest('x', { context: { blocks: [], structured: { deep: 'DEEP' } } }));
    const deep = text.replace('"DEEP"', `${'['.repeat(400_000)}${']'.repeat(400_000)}`);
    const reply = relay.nextMessage('orchestrator');
    relay.deliver({ from: 'orchestrator', target: 'worker', text: deep });
    const decoded = decodeExecutionResultMessage((await reply).text);
    expect(decoded.ok && decoded.message.executionResult).toMatchObject({ status: 'failed' });
    expect(ran).toBe(false);
  });
});
