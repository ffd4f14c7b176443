// npm run engine-session --workspace=examples/local-cli — an ACP engine session with a native
// approval, offline: the engine (a tiny bundled ACP agent; swap in createGeminiAcpAdapter() or
// createOpenCodeAcpAdapter() for the real ones) asks permission before it writes a file, the turn
// ends awaiting_approval, and resumeTurn answers the request in the same live engine process.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAcpAdapter, createHarness } from '@agent-assistant/harness';

const workspace = mkdtempSync(join(tmpdir(), 'engine-session-'));
const backend = createAcpAdapter({
  backendId: 'tiny-acp',
  command: process.execPath,
  args: [fileURLToPath(new URL('./tiny-acp-agent.mjs', import.meta.url))],
  cwd: workspace,
});
const harness = createHarness({ backend });
const input = (turnId, text) => ({
  assistantId: 'sessions-demo',
  turnId,
  sessionId: 'chat-1', // one live engine per session id
  message: { id: `${turnId}-message`, text, receivedAt: new Date().toISOString() },
  instructions: { systemPrompt: 'You are a careful coding agent.' },
});

try {
  for (const [turnId, decision] of [['turn-1', 'approved'], ['turn-2', 'rejected']]) {
    const stream = harness.streamTurn(input(turnId, 'Please create hello.txt'));
    for await (const event of stream) {
      if (event.type === 'approval_requested') console.log(`engine asks: ${event.title} (options: ${event.options.map((option) => option.optionId).join(', ')})`);
    }
    const paused = await stream.result;
    console.log(`-> ${paused.outcome}; hello.txt exists: ${existsSync(join(workspace, 'hello.txt'))}`);
    const [request] = paused.metadata.approvalRequests;
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [request.id]: decision } });
    console.log(`-> ${decision}: ${done.outcome}: ${done.assistantMessage?.text}; hello.txt exists: ${existsSync(join(workspace, 'hello.txt'))}`);
    rmSync(join(workspace, 'hello.txt'), { force: true });
  }
} finally {
  await backend.dispose(); // no engine process is left behind
  rmSync(workspace, { recursive: true, force: true });
}
