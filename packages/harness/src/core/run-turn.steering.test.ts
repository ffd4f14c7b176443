// Steering: createSteering() handles, delivered to a backend that declares `steer: true` (here a
// long-running child process that takes JSON-line input mid-turn), refused as steer_unsupported by
// the others, never dropped.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createHarness } from './create-harness.js';
import { createSteering } from './steering/create-steering.js';
import { HarnessConfigError } from './errors/harness-config-error.js';
import type { HarnessTraceEvent } from './types/trace.js';
import { createScriptedModel } from '../testing/scripted-model.js';
import type { ExecutionAdapter, ExecutionCapabilities, ExecutionResult } from '../execution/types.js';
import { PLAIN_CAPABILITIES, turnInput } from '../local/__fixtures__/test-helpers.js';
import { MAX_PENDING_STEERS } from './internal/turn-steering.js';
import { defineExecutionAdapter } from './define-execution-adapter.js';

const engine = fileURLToPath(new URL('../__fixtures__/steerable-engine.mjs', import.meta.url));

/**
 * A backend over the steerable engine process: sends the prompt, takes steering once the engine
 * said ready, forwards each input and waits for the engine's ack (a nack refuses it).
 */
function steerableBackend(hooks: { onReady?: () => void } = {}): ExecutionAdapter {
  const capabilities: ExecutionCapabilities = { ...PLAIN_CAPABILITIES, streaming: false, steer: true };
  return defineExecutionAdapter({
    backendId: 'steerable',
    describeCapabilities: () => ({ ...capabilities }),
    negotiate: () => ({ supported: true, degraded: false, reasons: [], effectiveCapabilities: { ...capabilities } }),
    execute(request, options): Promise<ExecutionResult> {
      const child = spawn(process.execPath, [engine], { stdio: ['pipe', 'pipe', 'inherit'] });
      const acks = new Map<string, { resolve: () => void; reject: (error: Error) => void }>();
      const send = (value: unknown) => child.stdin.write(`${JSON.stringify(value)}\n`);
      return new Promise<ExecutionResult>((resolve) => {
        let detach: (() => void) | undefined;
        createInterface({ input: child.stdout }).on('line', (line) => {
          const message = JSON.parse(line) as { ready?: boolean; ack?: string; nack?: string; reason?: string; done?: string };
          if (message.ready === true) {
            send({ prompt: request.message.text });
            detach = options?.steer?.receive(
              (input) =>
                new Promise<void>((accept, refuse) => {
                  acks.set(input.id, { resolve: accept, reject: refuse });
                  send({ steer: input.text, id: input.id });
                }),
            );
            hooks.onReady?.();
          }
          if (message.ack !== undefined) acks.get(message.ack)?.resolve();
          if (message.nack !== undefined) acks.get(message.nack)?.reject(new Error(message.reason));
          if (message.done !== undefined) {
            detach?.();
            child.stdin.end();
            resolve({ backendId: 'steerable', status: 'completed', output: { text: message.done } });
          }
        });
      });
    },
  });
}

/** The same engine behind a backend that does not declare `steer`. */
function plainBackend(): ExecutionAdapter {
  return defineExecutionAdapter({
    backendId: 'plain',
    describeCapabilities: () => ({ ...PLAIN_CAPABILITIES }),
    negotiate: () => ({ supported: true, degraded: false, reasons: [], effectiveCapabilities: { ...PLAIN_CAPABILITIES } }),
    execute: async (_request, options) => {
      expect(options?.steer).toBeUndefined();
      return { backendId: 'plain', status: 'completed', output: { text: 'plain answer' } };
    },
  });
}

describe('steering a running turn', () => {
  it('delivers input sent before and while the backend runs, in order, and counts it in metadata and trace', async () => {
    const trace: HarnessTraceEvent[] = [];
    const steering = createSteering();
    const harness = createHarness({ backend: steerableBackend(), trace: { emit: (event) => void trace.push(event) } });
    const pending = harness.runTurn(turnInput('start'), { steering });
    const early = steering.steer('first, sent before the engine was ready');
    const second = steering.steer('second');
    expect(await early).toEqual({ id: 'steer_1', status: 'delivered' });
    expect(await second).toEqual({ id: 'steer_2', status: 'delivered' });
    expect(await steering.steer('that is all')).toEqual({ id: 'steer_3', status: 'delivered' });
    const result = await pending;
    expect(result).toMatchObject({
      outcome: 'completed',
      assistantMessage: { text: 'start | first, sent before the engine was ready | second | that is all' },
      metadata: { steering: { delivered: 3 } },
    });
    const steerEvents = trace.filter((event) => event.type === 'steer');
    expect(steerEvents.map((event) => event.type === 'steer' && [event.steerId, event.status, event.chars])).toEqual([
      ['steer_1', 'delivered', 39],
      ['steer_2', 'delivered', 6],
      ['steer_3', 'delivered', 11],
    ]);
    expect(JSON.stringify(trace)).not.toContain('sent before the engine');
    expect(await steering.steer('after the end')).toMatchObject({ status: 'turn_finished' });
  });

  it('tells the caller when the engine refuses an input, and keeps going', async () => {
    const steering = createSteering();
    const pending = createHarness({ backend: steerableBackend() }).streamTurn(turnInput('start'), { steering });
    const refused = await steering.steer('please REFUSE this');
    expect(refused).toMatchObject({ id: 'steer_1', status: 'refused' });
    expect(refused.message).toContain('engine refused it');
    await steering.steer('that is all');
    const result = await pending.result;
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'start | that is all' }, metadata: { steering: { refused: 1, delivered: 1 } } });
  });

  it('refuses input as steer_unsupported for a backend without capabilities.steer, with the reason', async () => {
    const steering = createSteering();
    const pending = createHarness({ backend: plainBackend() }).runTurn(turnInput('hi'), { steering });
    const outcome = await steering.steer('too late to matter');
    expect(outcome).toMatchObject({ status: 'steer_unsupported' });
    expect(outcome.message).toContain('plain');
    expect(await pending).toMatchObject({ outcome: 'completed', metadata: { steering: { steer_unsupported: 1 } } });
  });

  it('refuses input as steer_unsupported in the harness model loop', async () => {
    const steering = createSteering();
    const model = createScriptedModel([{ type: 'final_answer', text: 'done' }]);
    const pending = createHarness({ model }).runTurn(turnInput('hi'), { steering });
    expect(await steering.steer('more')).toMatchObject({ status: 'steer_unsupported' });
    expect(await pending).toMatchObject({ outcome: 'completed', metadata: { steering: { steer_unsupported: 1 } } });
  });

  it('refuses input the turn could not take before it ended as turn_finished', async () => {
    const steering = createSteering();
    let ready!: () => void;
    const engineReady = new Promise<void>((resolve) => (ready = resolve));
    const pending = createHarness({ backend: steerableBackend({ onReady: ready }) }).runTurn(turnInput('start'), { steering });
    await engineReady;
    const last = steering.steer('that is all');
    const queued = [steering.steer('one more'), steering.steer('and another')];
    expect(await last).toMatchObject({ status: 'delivered' });
    for (const outcome of await Promise.all(queued)) expect(outcome.status).toBe('turn_finished');
    expect((await pending).metadata?.steering).toEqual({ delivered: 1, turn_finished: 2 });
  });

  it(`refuses more than ${MAX_PENDING_STEERS} waiting inputs instead of queueing without bound`, async () => {
    const steering = createSteering();
    const outcomes = Array.from({ length: MAX_PENDING_STEERS + 1 }, (_, index) => steering.steer(`input ${index}`));
    expect(await outcomes.at(-1)).toMatchObject({ status: 'refused' });
    const pending = createHarness({ backend: plainBackend() }).runTurn(turnInput('hi'), { steering });
    for (const outcome of await Promise.all(outcomes.slice(0, -1))) expect(outcome.status).toBe('steer_unsupported');
    await pending;
  });

  it('rejects bad input and foreign or reused handles with HarnessConfigError', async () => {
    const steering = createSteering();
    await expect(steering.steer('')).rejects.toBeInstanceOf(HarnessConfigError);
    await expect(steering.steer(42 as unknown as string)).rejects.toBeInstanceOf(HarnessConfigError);
    await expect(steering.steer('x'.repeat(100_001))).rejects.toBeInstanceOf(HarnessConfigError);
    const harness = createHarness({ backend: plainBackend() });
    await expect(harness.runTurn(turnInput('hi'), { steering: { steer: async () => ({ id: 'x', status: 'delivered' as const }) } })).rejects.toBeInstanceOf(
      HarnessConfigError,
    );
    await harness.runTurn(turnInput('hi'), { steering });
    await expect(harness.runTurn(turnInput('hi'), { steering })).rejects.toThrow(/one per turn/);
    expect(() => harness.streamTurn(turnInput('hi'), { steering })).toThrow(HarnessConfigError);
    await expect(harness.resumeTurn({}, { type: 'deferred' }, { steering })).rejects.toThrow(/one per turn/);
  });
});
