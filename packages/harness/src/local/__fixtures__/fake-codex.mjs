// Stands in for `codex exec --json` (Codex 0.171.0): JSON lines as recorded from the real CLI,
// threads under $HOME/.fake-codex with token counts cumulated over a resumed thread (as the real
// CLI reports them). Triggers in the prompt: FAKE_HTTP_<status>, FAKE_HANG.
import { args, hang, logCall, readStdin, sessionStore } from './fake-cli-common.mjs';

if (args.includes('--version')) {
  process.stdout.write('codex-cli 0.171.0\n');
  process.exit(0);
}
const stdin = await readStdin();
logCall(stdin);
process.stderr.write('WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir "/tmp"\n');
if (args[0] !== 'exec' || !args.includes('--json') || args.at(-1) !== '-') {
  process.stderr.write('fake-codex: expected `codex exec --json ... -`\n');
  process.exit(2);
}
const resumeAt = args.indexOf('resume');
const threads = sessionStore('fake-codex');
const threadId = resumeAt === -1 ? '01a22859-e7b3-7d70-a83a-' + String(Date.now()).slice(-12).padStart(12, '0') : args[resumeAt + 1];
const thread = resumeAt === -1 ? { inputTokens: 0, outputTokens: 0, messages: [] } : threads.load(threadId);
if (thread === undefined) {
  process.stderr.write(`Error: thread/resume failed: no rollout found for thread id ${threadId}\n`);
  process.exit(1);
}
const line = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
line({ type: 'thread.started', thread_id: threadId });
line({ type: 'turn.started' });
if (stdin.includes('FAKE_HANG')) hang();
else {
  const injected = /FAKE_HTTP_(\d{3})/.exec(stdin);
  if (injected) {
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `fake injected HTTP ${injected[1]}`, code: Number(injected[1]), status: 'INVALID_ARGUMENT' } });
    line({ type: 'error', message: body });
    line({ type: 'turn.failed', error: { message: body } });
    process.exitCode = 1;
  } else {
    thread.messages.push(stdin);
    thread.inputTokens += 24;
    thread.outputTokens += 12;
    threads.save(threadId, thread);
    line({ type: 'item.started', item: { id: 'item_0', type: 'command_execution', command: "/bin/bash -lc 'echo TOOL_OK'", aggregated_output: '', exit_code: null, status: 'in_progress' } });
    line({ type: 'item.completed', item: { id: 'item_0', type: 'command_execution', command: "/bin/bash -lc 'echo TOOL_OK'", aggregated_output: 'TOOL_OK\n', exit_code: 0, status: 'completed' } });
    line({ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: `PONG from fake (message ${thread.messages.length})` } });
    line({ type: 'turn.completed', usage: { input_tokens: thread.inputTokens, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: thread.outputTokens, reasoning_output_tokens: 0 } });
  }
}
