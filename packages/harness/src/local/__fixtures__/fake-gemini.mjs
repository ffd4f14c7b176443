// Stands in for `gemini --output-format json` (Gemini CLI 0.61.0): a pretty-printed JSON object on
// stdout; on an API error a stack trace plus a pretty-printed error report on stderr and exit
// code status & 0xff (144 for 400). With `--output-format stream-json`: JSON lines (init, user
// message, tool_use/tool_result, assistant message deltas, result with stream stats; an API error
// is a `result` line with status "error"), shapes as in the CLI's StreamJsonFormatter.
// Sessions under $HOME/.fake-gemini. Triggers in the prompt: FAKE_HTTP_<status>, FAKE_AUTH
// (exit 41), FAKE_UNTRUSTED (exit 55), FAKE_HANG, FAKE_TOOL (stream-json: one shell tool call).
import { args, hang, logCall, option, readStdin, sessionStore } from './fake-cli-common.mjs';

if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write('0.61.0\n');
  process.exit(0);
}
const stdin = await readStdin();
logCall(stdin);
process.stderr.write('Warning: 256-color support not detected. Using a terminal with at least 256-color support is recommended for a better visual experience.\nRipgrep is not available. Falling back to GrepTool.\n');
const sessions = sessionStore('fake-gemini');
const resume = option('--resume');
const sessionId = resume ?? option('--session-id') ?? crypto.randomUUID();
const streams = option('--output-format') === 'stream-json';
const line = (value) => process.stdout.write(`${JSON.stringify({ ...value, timestamp: new Date().toISOString() })}\n`);
const session = resume === undefined ? { messages: [] } : sessions.load(resume);
if (session === undefined) {
  process.stderr.write(`Error resuming session: Invalid session identifier "${resume}".\n`);
  process.exit(42);
}
if (stdin.includes('FAKE_AUTH')) {
  process.stderr.write('Invalid auth method selected.\n');
  process.exit(41);
}
if (stdin.includes('FAKE_UNTRUSTED')) {
  process.stderr.write('Gemini CLI is not running in a trusted directory. To proceed, either use `--skip-trust`, set the `GEMINI_CLI_TRUST_WORKSPACE=true` environment variable, or trust this directory in interactive mode.\n');
  process.exit(55);
}
if (streams) {
  line({ type: 'init', session_id: sessionId, model: option('--model') ?? 'auto' });
  line({ type: 'message', role: 'user', content: stdin });
}
if (stdin.includes('FAKE_HANG')) hang();
else {
  const injected = /FAKE_HTTP_(\d{3})/.exec(stdin);
  if (injected) {
    const status = Number(injected[1]);
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: `fake injected HTTP ${status}`, code: status, status: 'INVALID_ARGUMENT' } });
    if (streams) {
      line({ type: 'result', status: 'error', error: { type: 'Error', message: `[API Error: ${body}]` }, stats: { total_tokens: 0, models: {} } });
      process.exit(status & 0xff);
    }
    process.stderr.write(`Error when talking to Gemini API Full report available at: /tmp/gemini-client-error-Turn.run.json _ApiError: ${body}\n    at throwErrorIfNotOK (file:///bundle/chunk.js:267833:24) {\n  status: ${status}\n}\n`);
    process.stderr.write(`${JSON.stringify({ session_id: sessionId, error: { type: 'Error', message: body, code: status } }, null, 2)}\n`);
    process.exitCode = status & 0xff;
  } else {
    session.messages.push(stdin);
    sessions.save(sessionId, session);
    const tokens = { input: 12, prompt: 12, candidates: 5, total: 17, cached: 0, thoughts: 1, tool: 0 };
    const model = option('--model') ?? option('-m') ?? 'gemini-2.5-flash';
    const output = {
      session_id: sessionId,
      response: `PONG from fake (message ${session.messages.length})`,
      stats: {
        models: { [model]: { api: { totalRequests: 1, totalErrors: 0, totalLatencyMs: 134 }, tokens, roles: { main: { tokens } } } },
        tools: { totalCalls: 0, totalSuccess: 0, totalFail: 0, byName: {} },
        files: { totalLinesAdded: 0, totalLinesRemoved: 0 },
      },
    };
    if (streams) {
      if (stdin.includes('FAKE_TOOL')) {
        line({ type: 'tool_use', tool_name: 'run_shell_command', tool_id: 'run_shell_command__1', parameters: { command: 'echo TOOL_OK', description: 'Print TOOL_OK' } });
        line({ type: 'tool_result', tool_id: 'run_shell_command__1', status: 'success', output: 'TOOL_OK' });
      }
      for (const piece of ['PONG from fake ', `(message ${session.messages.length})`]) line({ type: 'message', role: 'assistant', content: piece, delta: true });
      line({ type: 'result', status: 'success', stats: { total_tokens: 17, input_tokens: 12, output_tokens: 5, cached: 0, input: 12, duration_ms: 134, tool_calls: 0, models: { [model]: { total_tokens: 17, input_tokens: 12, output_tokens: 5, cached: 0, input: 12 } } } });
    } else process.stdout.write(JSON.stringify(output, null, 2));
  }
}
