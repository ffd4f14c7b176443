// Stands in for `goose run --output-format stream-json` (aaif-goose/goose, formerly block/goose),
// printing the documented shapes (more-engines-facts.md section 7): `StreamEvent` lines from
// crates/goose-cli/src/session/mod.rs (serde tag "type", snake_case) — `message` (a
// crates/goose/src/conversation/message.rs `Message`, content items tagged camelCase: `text`,
// `toolRequest`, `toolResponse`), `error`, and a last `complete` line with the tokens. One answer
// may span several `message` lines. No session id is printed: the caller names the session
// (`--name`) and continues it with `--resume --name`. In GOOSE_MODE approve / smart_approve a
// tool confirmation stops a headless run with goose's own sentence; in auto it is allowed.
// Sessions under $HOME/.local/share/fake-goose. Triggers in the prompt: FAKE_TOOL (one
// developer__shell call `echo TOOL_OK`), FAKE_HTTP_<status>, FAKE_HANG (starts a tool child, writes
// $PID_FILE, prints one message line, hangs).
import { execFileSync } from 'node:child_process';
import { args, hangWithToolChild, logCall, option, readStdin, sessionStore } from './fake-cli-common.mjs';

if (args.includes('--version') || args.includes('-V')) {
  process.stdout.write('goose 1.50.0\n');
  process.exit(0);
}
const stdin = await readStdin();
logCall(stdin);
const line = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
const created = Math.floor(Date.now() / 1000);
const message = (role, content) =>
  line({ type: 'message', message: { id: `msg_${Math.random().toString(36).slice(2)}`, role, created, content, metadata: { userVisible: true, agentVisible: true } } });
const name = option('--name') ?? option('-n');
const sessions = sessionStore('local/share/fake-goose');
const session = args.includes('--resume') ? sessions.load(name) : { messages: [] };
if (session === undefined) {
  process.stderr.write(`Error: No session found with name '${name}'\n`);
  process.exit(1);
}
const mode = process.env.GOOSE_MODE ?? 'auto';
if (stdin.includes('FAKE_HANG')) await hangWithToolChild(() => message('assistant', [{ type: 'text', text: 'Working on it' }]));
else {
  const injected = /FAKE_HTTP_(\d{3})/.exec(stdin);
  if (injected) {
    line({ type: 'error', error: `Request failed: Bad request (${injected[1]}): fake injected HTTP ${injected[1]}` });
    process.exit(1);
  }
  session.messages.push(stdin);
  if (name !== undefined) sessions.save(name, session);
  if (stdin.includes('FAKE_TOOL') && mode !== 'chat') {
    message('assistant', [{ type: 'text', text: 'Let me check.' }]);
    message('assistant', [{ type: 'toolRequest', id: 'call_1', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'echo TOOL_OK' } } } }]);
    if (mode === 'approve' || mode === 'smart_approve') {
      const label = mode === 'approve' ? 'Approve' : 'SmartApprove';
      line({ type: 'error', error: `Tool approval required in non-interactive mode with GooseMode::${label}. This is an invalid configuration — Approve/SmartApprove modes require an interactive terminal. Use GooseMode::Auto for headless sessions.` });
      process.exit(1);
    }
    const output = execFileSync('/bin/sh', ['-c', 'echo TOOL_OK'], { encoding: 'utf8' });
    message('user', [{ type: 'toolResponse', id: 'call_1', toolResult: { status: 'success', value: { content: [{ type: 'text', text: output }], isError: false } } }]);
    message('assistant', [{ type: 'text', text: 'DONE after tool: ' }]);
    message('assistant', [{ type: 'text', text: output.trim() }]);
  } else {
    message('assistant', [{ type: 'text', text: 'PONG from fake goose ' }]);
    message('assistant', [{ type: 'text', text: `(message ${session.messages.length})` }]);
  }
  line({ type: 'complete', total_tokens: 18, input_tokens: 12, output_tokens: 6 });
}
