// Stands in for `cursor-agent -p --output-format stream-json` (Cursor CLI), printing the shapes
// documented at cursor.com/docs/cli/reference/output-format and captured from an authenticated
// CLI (agent 2026.08.11-e8db854) in ZhengyiLuo/AgentsServer test_cursor_agent_client.py (see
// more-engines-facts.md section 8): `system/init` with `session_id`, the `user` message,
// `tool_call` started/completed with the call under `<name>ToolCall` (a shell call comes back
// `rejected` without --force), `assistant`, and the terminal `result` (`result`, `is_error`,
// `usage.inputTokens/outputTokens`). With --stream-partial-output the `assistant` events take the
// four forms described on forum.cursor.com ("--stream-partial-output: assistant events have
// multiple undocumented forms"): chunks with `timestamp_ms`, the same chunk again with a
// `model_call_id`, and the whole answer without `timestamp_ms`. Without --trust it refuses to run.
// The login check (CURSOR_API_KEY) and its stderr wording are this fake's own.
// Sessions under $HOME/.fake-cursor. Triggers in the prompt: FAKE_TOOL, FAKE_HTTP_<status>,
// FAKE_HANG (starts a tool child, writes $PID_FILE, prints one assistant chunk, hangs).
import { execFileSync } from 'node:child_process';
import { args, hangWithToolChild, logCall, option, sessionStore } from './fake-cli-common.mjs';

if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write('2026.08.11-e8db854\n');
  process.exit(0);
}
logCall('');
if (!args.includes('--trust') && !args.includes('--force') && !args.includes('--yolo')) {
  process.stderr.write('Workspace Trust Required\nPass --trust, --yolo, or -f if you trust this directory\n');
  process.exit(1);
}
if (!process.env.CURSOR_API_KEY) {
  process.stderr.write("Error: Authentication required. Please run 'cursor-agent login' first, or set CURSOR_API_KEY environment variable.\n");
  process.exit(1);
}
const dashes = args.indexOf('--');
const prompt = dashes === -1 ? (args.at(-1) ?? '') : args.slice(dashes + 1).join(' ');
const sessions = sessionStore('fake-cursor');
const resume = option('--resume');
const session = resume === undefined ? { messages: [] } : sessions.load(resume);
if (session === undefined) {
  process.stderr.write(`Error: session ${resume} not found\n`);
  process.exit(1);
}
const sessionId = resume ?? crypto.randomUUID();
const partial = args.includes('--stream-partial-output');
const force = args.includes('--force') || args.includes('-f') || args.includes('--yolo');
const line = (value) => process.stdout.write(`${JSON.stringify({ ...value, session_id: sessionId })}\n`);
const now = () => Date.now();
line({ type: 'system', subtype: 'init', apiKeySource: 'env', cwd: process.cwd(), model: option('--model') ?? 'Auto', permissionMode: 'default' });
line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: prompt }] } });
if (prompt.includes('FAKE_HANG')) await hangWithToolChild(() => line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'Working' }] }, timestamp_ms: now() }));
else {
  const injected = /FAKE_HTTP_(\d{3})/.exec(prompt);
  if (injected) {
    line({ type: 'result', subtype: 'error', duration_ms: 120, is_error: true, result: `API Error: ${injected[1]} fake injected HTTP ${injected[1]}`, request_id: '00000001' });
    process.exit(1);
  }
  session.messages.push(prompt);
  sessions.save(sessionId, session);
  let answer = `PONG from fake cursor (message ${session.messages.length})`;
  if (prompt.includes('FAKE_TOOL')) {
    const command = 'echo TOOL_OK';
    line({ type: 'tool_call', subtype: 'started', call_id: 'call-shell-1', tool_call: { shellToolCall: { args: { command } } } });
    const result = force
      ? { success: { command, exitCode: 0, stdout: execFileSync('/bin/sh', ['-c', command], { encoding: 'utf8' }), stderr: '' } }
      : { rejected: { command, workingDirectory: process.cwd(), reason: '', isReadonly: false } };
    line({ type: 'tool_call', subtype: 'completed', call_id: 'call-shell-1', tool_call: { shellToolCall: { args: { command }, result } } });
    answer = force ? 'DONE after tool: TOOL_OK' : 'The shell command was rejected.';
  }
  if (partial) {
    const middle = Math.ceil(answer.length / 2);
    for (const chunk of [answer.slice(0, middle), answer.slice(middle)]) {
      line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: chunk }] }, timestamp_ms: now() });
      line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: chunk }] }, model_call_id: 'a594', timestamp_ms: now() });
    }
  }
  line({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: answer }] } });
  line({ type: 'result', subtype: 'success', duration_ms: 4889, is_error: false, result: answer, request_id: '00000001', usage: { inputTokens: 14948, outputTokens: 103 } });
}
