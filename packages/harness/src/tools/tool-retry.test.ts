import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createHarness, createToolRegistry, defineTool, HarnessConfigError, type AnyTypedTool, ToolExecutionError, type HarnessResult } from '../index.js';
import { createScriptedModel, createTurnInput } from '../testing/index.js';

function flaky(failures: number, retryable = true) {
  let calls = 0;
  const tool = defineTool({
    name: 'flaky',
    description: 'Fails a few times.',
    input: z.object({ n: z.number() }),
    retry: { attempts: 3, backoffMs: 1 },
    execute: () => {
      calls += 1;
      if (calls <= failures) throw new ToolExecutionError(`failure ${String(calls)}`, { reason: 'unavailable', retryable });
      return `ok after ${String(calls)}`;
    },
  });
  return { tool, calls: () => calls };
}

async function runOnce(tool: AnyTypedTool, input: Record<string, unknown> = { n: 1 }, maxElapsedMs?: number) {
  const harness = createHarness({
    model: createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: tool.name, input }] },
      { type: 'final_answer', text: 'done' },
    ]),
    tools: createToolRegistry([tool]),
    ...(maxElapsedMs === undefined ? {} : { limits: { maxElapsedMs } }),
  });
  return harness.runTurn(createTurnInput({ text: 'go' }));
}

function toolResult(result: HarnessResult) {
  const item = result.transcript.find((entry) => entry.type === 'tool_result');
  if (item?.type !== 'tool_result') throw new Error('no tool result');
  return item.result;
}

describe('defineTool retry', () => {
  it('runs a failing call again and returns the first success, with the attempt count', async () => {
    const { tool, calls } = flaky(2);
    const result = await runOnce(tool);
    expect(result.outcome).toBe('completed');
    expect(calls()).toBe(3);
    expect(toolResult(result)).toMatchObject({ status: 'success', output: 'ok after 3', metadata: { attempts: 3 } });
    expect(result.usage.toolCalls).toBe(1);
  });

  it('gives the model the last error when every attempt fails', async () => {
    const { tool, calls } = flaky(5);
    const result = await runOnce(tool);
    expect(calls()).toBe(3);
    expect(toolResult(result)).toMatchObject({ status: 'error', error: { code: 'unavailable', message: 'failure 3' }, metadata: { attempts: 3 } });
  });

  it('does not retry errors that are not retryable, nor invalid input', async () => {
    const fatal = flaky(1, false);
    expect((await runOnce(fatal.tool)).stopReason).toBe('tool_error_unrecoverable');
    expect(fatal.calls()).toBe(1);
    const invalid = flaky(0);
    const result = await runOnce(invalid.tool, { n: 'one' });
    expect(toolResult(result).error?.code).toBe('invalid_input');
    expect(invalid.calls()).toBe(0);
  });

  it('retries a timeout of the tool', async () => {
    let calls = 0;
    const tool = defineTool({
      name: 'slow_once',
      description: 'Hangs on the first call.',
      input: z.object({}),
      timeoutMs: 20,
      retry: { attempts: 2 },
      execute: (_input, { signal }) => {
        calls += 1;
        if (calls === 1) return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
        return 'fast';
      },
    });
    const result = await runOnce(tool, {});
    expect(toolResult(result)).toMatchObject({ status: 'success', output: 'fast', metadata: { attempts: 2 } });
  });

  it('makes no retry whose back-off would reach the turn deadline', async () => {
    let calls = 0;
    const tool = defineTool({
      name: 'patient',
      description: 'Always fails.',
      input: z.object({}),
      retry: { attempts: 5, backoffMs: 60_000 },
      execute: () => {
        calls += 1;
        throw new ToolExecutionError('busy', { reason: 'busy', retryable: true });
      },
    });
    const result = await runOnce(tool, {}, 5_000);
    expect(result.outcome).toBe('completed');
    expect(calls).toBe(1);
    expect(toolResult(result).error?.code).toBe('busy');
  });

  it('refuses a bad retry policy', () => {
    const base = { name: 't', description: 'd', input: z.object({}), execute: () => 'x' };
    expect(() => defineTool({ ...base, retry: { attempts: 0 } })).toThrow(HarnessConfigError);
    expect(() => defineTool({ ...base, retry: { attempts: 11 } })).toThrow(/1 to 10/);
    expect(() => defineTool({ ...base, retry: { attempts: 2, backoffMs: -1 } })).toThrow(/backoffMs/);
    expect(() => defineTool({ ...base, retry: 'yes' as never })).toThrow(/retry must be an object/);
  });
});
