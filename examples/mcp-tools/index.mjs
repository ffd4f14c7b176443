// npm start — offline, no keys. An MCP server's tools in a harness turn: the registry starts
// ./notes-server.mjs as a child process (stdio), lists its tools with their JSON Schemas, and the
// (scripted) model calls them; an `isError` result goes back to the model as a retryable error.
// For a remote server use { transport: { type: 'http', url, headers } } — that path also runs in Workers.
import { fileURLToPath } from 'node:url';
import { createHarness, createMcpToolRegistry } from '@agent-assistant/harness';
import { createScriptedModel } from '@agent-assistant/harness/testing';

const tools = createMcpToolRegistry({
  transport: { type: 'stdio', command: process.execPath, args: [fileURLToPath(new URL('./notes-server.mjs', import.meta.url))] },
  toolNamePrefix: 'notes_',
  callTimeoutMs: 10_000,
});

try {
  console.log('Tools from the MCP server:');
  for (const tool of await tools.listAvailable()) console.log(`- ${tool.name}: ${tool.description} ${JSON.stringify(tool.inputSchema)}`);

  const lastResult = (input) => [...input.transcript].reverse().find((item) => item.type === 'tool_result')?.result;
  // A real model decides these steps itself; the script shows what it receives at each step.
  const model = createScriptedModel([
    { type: 'tool_request', calls: [{ id: 'c1', name: 'notes_read_note', input: { title: 'welcom' } }] },
    (input) => {
      console.log('\nThe model got back:', JSON.stringify(lastResult(input).error));
      return { type: 'tool_request', calls: [{ id: 'c2', name: 'notes_list_notes', input: {} }] };
    },
    (input) => {
      console.log('The model got back:', JSON.stringify(lastResult(input).structuredOutput));
      return { type: 'tool_request', calls: [{ id: 'c3', name: 'notes_read_note', input: { title: 'welcome' } }] };
    },
    (input) => ({ type: 'final_answer', text: `The welcome note says: ${lastResult(input).output}` }),
  ]);

  const harness = createHarness({ model, tools, limits: { maxToolCalls: 5 } });
  const result = await harness.runTurn({
    assistantId: 'notes-demo',
    turnId: 'turn-1',
    message: { id: 'turn-1-m', text: 'What does the welcome note say?', receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'You answer from the notes.' },
  });
  console.log(`\n${result.outcome} / ${result.stopReason}: ${result.assistantMessage?.text}`);
} finally {
  // Ends the server process.
  await tools.close();
}
