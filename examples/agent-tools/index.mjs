// Agent building blocks in one offline turn: a todo plan, a remembered fact, and a bash command
// that waits for approval, then runs once approved. A scripted model plays the assistant.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  composeToolRegistries,
  createBashToolRegistry,
  createFileMemoryStore,
  createHarness,
  createMemoryToolRegistry,
  createPlanningToolRegistry,
} from '@agent-assistant/harness';
import { createScriptedModel, createTurnInput } from '@agent-assistant/harness/testing';

const dir = await mkdtemp(join(tmpdir(), 'agent-tools-'));
try {
  const tools = composeToolRegistries(
    createPlanningToolRegistry(),
    createMemoryToolRegistry({ store: createFileMemoryStore({ path: join(dir, 'memory.json') }) }),
    createBashToolRegistry({ cwd: dir, timeoutMs: 10_000 }), // requiresApproval by default
  );
  const model = createScriptedModel([
    {
      type: 'tool_request',
      calls: [
        { id: 'plan', name: 'write_todos', input: { todos: [{ content: 'Note the project name', status: 'in_progress' }, { content: 'List the files', status: 'pending' }] } },
        { id: 'mem', name: 'remember', input: { key: 'project', value: 'agent-tools example' } },
      ],
    },
    { type: 'tool_request', calls: [{ id: 'ls', name: 'bash', input: { command: 'echo hello > greeting.txt && ls' } }] },
    { type: 'final_answer', text: 'Planned, remembered the project name, and listed the files.' },
  ]);
  // Same secret on both sides, so the approval can be resumed by another harness (or process).
  const config = { model, tools, continuationSecret: 'example-secret-0123456789' };

  const paused = await createHarness(config).runTurn(createTurnInput({ text: 'Set up the workspace.' }));
  console.log(`first run: ${paused.outcome} (${paused.continuation?.state.approvals?.map((request) => request.summary).join('; ')})`);

  const done = await createHarness(config).resumeTurn(paused.continuation, { type: 'approval', decisions: { ls: 'approved' } });
  const bash = done.transcript.find((item) => item.type === 'tool_result' && item.result.toolName === 'bash');
  console.log(`after approval: ${done.outcome}: ${done.assistantMessage?.text}`);
  console.log(`bash said: ${bash?.result.output?.trim()}`);
  console.log(`remembered: ${(await createFileMemoryStore({ path: join(dir, 'memory.json') }).get('project'))?.value}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
