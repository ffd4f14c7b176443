// npm start — offline, no keys: a scripted model searches a memory workspace, reads the file it
// found and answers citing the `sourcePath` the read returned.
import { createHarness, createWorkspaceToolRegistry } from '@agent-assistant/harness';
import { HALLUCINATION_PREVENTION_CLAUSES } from '@agent-assistant/harness/tools';
import { createScriptedModel } from '@agent-assistant/harness/testing';
import { createMemoryVfs } from '@agent-assistant/vfs';

const vfs = createMemoryVfs({
  '/README.md': '# Team handbook\nPolicies live in /docs.\n',
  '/docs/security.md': '# Security\n\nRotate API keys every 30 days.\nNever commit secrets.\n',
  '/docs/onboarding.md': '# Onboarding\n\nAsk for laptop access on day one.\n',
});

/** The latest result of one tool that the model has seen in its transcript. */
function lastResult(input, toolName) {
  const item = [...input.transcript].reverse().find((entry) => entry.type === 'tool_result' && entry.result.toolName === toolName);
  return item?.result;
}

// A real model would decide these steps itself; the script shows what it receives at each step.
const model = createScriptedModel([
  { type: 'tool_request', calls: [{ id: 'search-1', name: 'workspace_search', input: { query: 'api keys' } }] },
  (input) => {
    const search = lastResult(input, 'workspace_search');
    console.log(`workspace_search said:\n${search.output}\n`);
    const [first] = search.structuredOutput.results;
    return { type: 'tool_request', calls: [{ id: 'read-1', name: 'workspace_read', input: { path: first.sourcePath } }] };
  },
  (input) => {
    const read = lastResult(input, 'workspace_read');
    const fact = read.output.split('\n').find((line) => line.startsWith('Rotate'));
    return { type: 'final_answer', text: `${fact} (source: ${read.structuredOutput.sourcePath})` };
  },
]);

const harness = createHarness({ model, tools: createWorkspaceToolRegistry({ vfs }) });
const result = await harness.runTurn({
  assistantId: 'handbook-assistant',
  turnId: 'turn-1',
  message: { id: 'message-1', text: 'How often should we rotate API keys?', receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: ['Answer from the team handbook.', ...HALLUCINATION_PREVENTION_CLAUSES].join('\n') },
});

const read = result.transcript.find((item) => item.type === 'tool_result' && item.result.toolName === 'workspace_read');
console.log(`outcome:    ${result.outcome} / ${result.stopReason}`);
console.log(`answer:     ${result.assistantMessage?.text}`);
console.log(`sourcePath: ${read?.result.structuredOutput?.sourcePath}`);
