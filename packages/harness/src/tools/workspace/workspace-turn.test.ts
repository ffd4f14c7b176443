import { describe, expect, it } from 'vitest';
// The harness build sees @agent-assistant/vfs through its built dist; tests use its source directly.
import { createMemoryVfs } from '../../../../vfs/src/index.js';
import { createHarness } from '../../core/create-harness.js';
import type { HarnessModelInput } from '../../core/types/model.js';
import type { HarnessToolResult } from '../../shared/types/tools.js';
import { createScriptedModel, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createWorkspaceToolRegistry } from './create-workspace-tool-registry.js';
import { HALLUCINATION_PREVENTION_CLAUSES } from './workspace-prompt-clauses.js';
import { WORKSPACE_TOOL_NAMES } from './workspace-tool-names.js';

const vfs = createMemoryVfs({
  '/README.md': '# Handbook\nSee docs/ for policies.\n',
  '/docs/security.md': '# Security\n\nRotate API keys every 30 days.\nNever commit secrets.\n',
  '/docs/onboarding.md': '# Onboarding\n\nAsk for laptop access on day one.\n',
});

/** The latest result of `toolName` the model has seen, read from its input transcript. */
function lastResult(input: HarnessModelInput, toolName: string): HarnessToolResult {
  for (const item of [...input.transcript].reverse()) {
    if (item.type === 'tool_result' && item.result.toolName === toolName) return item.result;
  }
  throw new Error(`The model has not seen a ${toolName} result.`);
}

const turnInput = (text: string) =>
  createTurnInput({
    text,
    instructions: { systemPrompt: ['You answer from the company handbook.', ...HALLUCINATION_PREVENTION_CLAUSES].join('\n') },
  });

describe('a harness turn with workspace tools', () => {
  it('searches, reads, and cites the sourcePath the read returned', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'search-1', name: 'workspace_search', input: { query: 'rotate' } }] },
      (input) => {
        const search = lastResult(input, 'workspace_search');
        const [hit] = search.structuredOutput!.results as Array<{ sourcePath: string; line: number }>;
        return { type: 'tool_request', calls: [{ id: 'read-1', name: 'workspace_read', input: { path: hit!.sourcePath } }] };
      },
      (input) => {
        const read = lastResult(input, 'workspace_read');
        const sourcePath = read.structuredOutput!.sourcePath as string;
        const fact = read.output!.split('\n').find((line) => line.startsWith('Rotate'))!;
        return { type: 'final_answer', text: `${fact} (source: ${sourcePath})` };
      },
    ]);
    const trace = memoryTraceSink();
    const result = await createHarness({ model, tools: createWorkspaceToolRegistry({ vfs }), trace }).runTurn(
      turnInput('How often do we rotate API keys?'),
    );

    expect(result.outcome).toBe('completed');
    expect(result.assistantMessage?.text).toBe('Rotate API keys every 30 days. (source: /docs/security.md)');
    const readItem = result.transcript.find((item) => item.type === 'tool_result' && item.result.toolName === 'workspace_read');
    expect(readItem).toMatchObject({ result: { status: 'success', structuredOutput: { sourcePath: '/docs/security.md' } } });
    expect(model.calls[0]!.availableTools.map((tool) => tool.name)).toEqual([...WORKSPACE_TOOL_NAMES]);
    expect(model.calls[0]!.instructions.systemPrompt).toContain('`sourcePath`');
    expect(trace.types().filter((type) => type === 'tool_finished')).toHaveLength(2);
  });

  it('keeps the turn going after retryable errors, so the model can correct its input and path', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'workspace_read', input: { path: '../etc/passwd' } }] },
      (input) => {
        expect(lastResult(input, 'workspace_read').error).toMatchObject({ code: 'invalid_input', retryable: true });
        return { type: 'tool_request', calls: [{ id: 'c2', name: 'workspace_read', input: { path: '/docs/onboard.md' } }] };
      },
      (input) => {
        expect(lastResult(input, 'workspace_read').error).toMatchObject({ code: 'not_found', retryable: true });
        return { type: 'tool_request', calls: [{ id: 'c3', name: 'workspace_list', input: { path: '/docs', limit: 10.0 } }] };
      },
      (input) => {
        const entries = lastResult(input, 'workspace_list').structuredOutput!.entries as Array<{ sourcePath: string }>;
        const path = entries.find((entry) => entry.sourcePath.includes('onboarding'))!.sourcePath;
        return { type: 'tool_request', calls: [{ id: 'c4', name: 'workspace_read', input: { path } }] };
      },
      (input) => ({ type: 'final_answer', text: `Ask for laptop access on day one (source: ${String(lastResult(input, 'workspace_read').structuredOutput!.sourcePath)})` }),
    ]);
    const result = await createHarness({ model, tools: createWorkspaceToolRegistry({ vfs }) }).runTurn(turnInput('What happens on day one?'));
    expect(result.outcome).toBe('completed');
    expect(result.assistantMessage?.text).toBe('Ask for laptop access on day one (source: /docs/onboarding.md)');
    expect(model.remaining()).toBe(0);
  });

  it('hands an empty search back to the model as an explicit empty result', async () => {
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'workspace_search', input: { query: 'parental leave' } }] },
      (input) => {
        const search = lastResult(input, 'workspace_search');
        expect(search.structuredOutput).toMatchObject({ results: [], empty: true });
        return { type: 'final_answer', text: `The handbook has nothing on that: ${search.output!}` };
      },
    ]);
    const result = await createHarness({ model, tools: createWorkspaceToolRegistry({ vfs }) }).runTurn(turnInput('Parental leave?'));
    expect(result.outcome).toBe('completed');
    expect(result.assistantMessage?.text).toContain('No matches for "parental leave" in the workspace.');
  });
});
