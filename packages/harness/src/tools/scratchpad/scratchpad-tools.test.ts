import { describe, expect, it } from 'vitest';
import { composeToolRegistries, createHarness, createScratchpadToolRegistry, type HarnessResult } from '../../index.js';
import { createScriptedModel, createTurnInput } from '../../testing/index.js';

const secret = 'a-test-secret-of-at-least-32-bytes!!';

function results(result: HarnessResult) {
  return result.transcript.flatMap((item) => (item.type === 'tool_result' ? [item.result] : []));
}

const call = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_request' as const, calls: [{ id, name, input }] });

describe('createScratchpadToolRegistry', () => {
  it('writes, appends, lists and deletes notes, and keeps them across a clarification pause', async () => {
    const first = createHarness({
      model: createScriptedModel([
        call('w1', 'scratchpad_write', { name: 'draft.md', content: 'Hello' }),
        call('w2', 'scratchpad_write', { name: 'draft.md', content: ', world', mode: 'append' }),
        call('w3', 'scratchpad_write', { name: 'todo', content: 'x' }),
        { type: 'clarification', question: 'Which tone?' },
      ]),
      tools: createScratchpadToolRegistry(),
      continuationSecret: secret,
    });
    const paused = await first.runTurn(createTurnInput({ text: 'draft' }));
    expect(paused.outcome).toBe('needs_clarification');

    const second = createHarness({
      model: createScriptedModel([
        call('r1', 'scratchpad_read', { name: 'draft.md' }),
        call('d1', 'scratchpad_delete', { name: 'todo' }),
        call('l1', 'scratchpad_list', {}),
        call('r2', 'scratchpad_read', { name: 'todo' }),
        { type: 'final_answer', text: 'ok' },
      ]),
      tools: composeToolRegistries(createScratchpadToolRegistry()),
      continuationSecret: secret,
    });
    const resumed = await second.resumeTurn(JSON.parse(JSON.stringify(paused.continuation)), { type: 'clarification', answer: 'Warm' });
    const [read, deleted, listed, missing] = results(resumed).slice(-4);
    expect(read?.output).toBe('Hello, world');
    expect(deleted?.output).toBe('Deleted "todo".');
    expect(listed?.structuredOutput).toEqual({ notes: [{ name: 'draft.md', chars: 12 }] });
    expect(missing?.error).toMatchObject({ code: 'not_found', retryable: true });
  });

  it('bounds the number and size of notes, and refuses bad names', async () => {
    const harness = createHarness({
      model: createScriptedModel([
        call('w1', 'scratchpad_write', { name: 'a', content: '1234' }),
        call('w2', 'scratchpad_write', { name: 'b', content: '1' }),
        call('w3', 'scratchpad_write', { name: 'a', content: '56', mode: 'append' }),
        call('w4', 'scratchpad_write', { name: '../etc', content: '1' }),
        { type: 'final_answer', text: 'ok' },
      ]),
      tools: createScratchpadToolRegistry({ maxNotes: 1, maxNoteChars: 5 }),
      limits: { maxToolCalls: 10 },
    });
    const [first, second, third, fourth] = results(await harness.runTurn(createTurnInput({ text: 'x' })));
    expect(first?.status).toBe('success');
    expect(second?.error?.code).toBe('scratchpad_full');
    expect(third?.error?.code).toBe('note_too_large');
    expect(fourth?.error?.code).toBe('invalid_input');
  });
});
