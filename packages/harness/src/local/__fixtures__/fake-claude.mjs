// Stands in for `claude -p` (Claude Code 2.1.332): same flags, same stdout shapes (recorded from
// the real CLI against a fake model server), sessions under $HOME/.fake-claude. The prompt comes
// from stdin. Triggers in the prompt: FAKE_HTTP_<status>, FAKE_MAX_TURNS, FAKE_HANG, FAKE_GARBAGE,
// FAKE_NO_PARTIAL (stream-json without partial-message deltas), FAKE_TOOL (stream-json: a Bash
// call and a TodoWrite list with their tool results before the answer).
// Each run appends {argv, stdin, env} to $FAKE_CLI_LOG when set.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write('2.1.332 (Claude Code)\n');
  process.exit(0);
}
const option = (name) => {
  const inline = args.find((arg) => arg.startsWith(`${name}=`));
  if (inline !== undefined) return inline.slice(name.length + 1);
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const stdin = await new Promise((resolve) => {
  const chunks = [];
  process.stdin.on('data', (chunk) => chunks.push(chunk));
  process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
});
if (process.env.FAKE_CLI_LOG) {
  appendFileSync(process.env.FAKE_CLI_LOG, `${JSON.stringify({ argv: args, stdin, env: process.env })}\n`);
}
if (!args.includes('-p') && !args.includes('--print')) {
  process.stderr.write('fake-claude: interactive mode is not supported\n');
  process.exit(1);
}
const format = option('--output-format') ?? 'text';
if (format === 'stream-json' && !args.includes('--verbose')) {
  process.stderr.write('Error: When using --print, --output-format=stream-json requires --verbose\n');
  process.exit(1);
}
if (stdin.trim() === '') {
  process.stderr.write('Error: Input must be provided either through stdin or as a prompt argument when using --print\n');
  process.exit(1);
}
await answer();

async function answer() {
  const sessions = join(process.env.HOME ?? '.', '.fake-claude');
  mkdirSync(sessions, { recursive: true });
  const resume = option('--resume');
  let sessionId = option('--session-id') ?? resume ?? crypto.randomUUID();
  let session = { messages: [], totalCostUsd: 0 };
  if (resume !== undefined) {
    const file = join(sessions, `${resume}.json`);
    if (!existsSync(file)) {
      process.stderr.write(`No conversation found with session ID: ${resume}\n`);
      process.exit(1);
    }
    session = JSON.parse(readFileSync(file, 'utf8'));
    sessionId = resume;
  }
  if (stdin.includes('FAKE_HANG')) {
    // Like the real CLI, the session (with the user message) exists before the model answers.
    session.messages.push(stdin);
    writeFileSync(join(sessions, `${sessionId}.json`), JSON.stringify(session));
    globalThis.setInterval(() => undefined, 60_000);
    return;
  }
  const injected = /FAKE_HTTP_(\d{3})/.exec(stdin);
  const maxTurns = stdin.includes('FAKE_MAX_TURNS');
  const turnCost = injected ? 0 : 0.000148;
  session.totalCostUsd += turnCost;
  session.messages.push(stdin);
  writeFileSync(join(sessions, `${sessionId}.json`), JSON.stringify(session));
  const reply = `PONG from fake (message ${session.messages.length})`;
  const usage = injected
    ? { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 }
    : { input_tokens: 12, cache_creation_input_tokens: 3, cache_read_input_tokens: 4, output_tokens: 5, service_tier: 'standard' };
  const result = {
    duration_api_ms: 66,
    stop_reason: injected ? 'stop_sequence' : 'end_turn',
    session_id: sessionId,
    total_cost_usd: session.totalCostUsd,
    usage,
    modelUsage: { 'claude-opus-5-5': { inputTokens: 12, outputTokens: 5, costUSD: session.totalCostUsd } },
    permission_denials: [],
    terminal_reason: injected ? 'api_error' : 'completed',
    is_error: Boolean(injected) || maxTurns,
    num_turns: 1,
    subtype: maxTurns ? 'error_max_turns' : 'success',
    api_error_status: injected ? Number(injected[1]) : null,
    ...(injected ? { api_error_type: 'invalid_request_error' } : {}),
    result: injected ? `API Error: ${injected[1]} fake injected HTTP ${injected[1]}` : reply,
    type: 'result',
    duration_ms: 261,
    uuid: crypto.randomUUID(),
  };
  if (stdin.includes('FAKE_GARBAGE')) {
    process.stdout.write('{"type":"result", this is not JSON\n');
    return;
  }
  if (format === 'json') {
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } else if (format === 'stream-json') {
    const line = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
    line({ type: 'system', subtype: 'init', cwd: process.cwd(), session_id: sessionId, tools: ['Task', 'Bash'], model: 'claude-opus-5-5', permissionMode: 'default' });
    if (!injected) {
      if (stdin.includes('FAKE_TOOL')) {
        const todos = [{ content: 'Run the check', status: 'in_progress', activeForm: 'Running the check' }, { content: 'Report', status: 'pending', activeForm: 'Reporting' }];
        line({ type: 'assistant', message: { id: 'msg_0', role: 'assistant', content: [
          { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'echo TOOL_OK', description: 'Print TOOL_OK' } },
          { type: 'tool_use', id: 'toolu_2', name: 'TodoWrite', input: { todos } },
        ] }, session_id: sessionId });
        line({ type: 'user', message: { role: 'user', content: [
          { tool_use_id: 'toolu_1', type: 'tool_result', content: 'TOOL_OK', is_error: false },
          { tool_use_id: 'toolu_2', type: 'tool_result', content: 'Todos have been modified successfully.', is_error: false },
        ] }, session_id: sessionId });
      }
      if (args.includes('--include-partial-messages') && !stdin.includes('FAKE_NO_PARTIAL')) {
        line({ type: 'stream_event', event: { type: 'message_start', message: { id: 'msg_1' } }, session_id: sessionId });
        for (const piece of ['PONG ', 'from ', `fake (message ${session.messages.length})`]) {
          line({ type: 'stream_event', event: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } }, session_id: sessionId });
        }
      }
      line({ type: 'assistant', message: { id: 'msg_1', role: 'assistant', content: [{ type: 'text', text: reply }] }, session_id: sessionId });
    }
    line(result);
  } else {
    process.stdout.write(`${result.result}\n`);
  }
  if (injected) process.exitCode = 1;
}
