// Stands in for `opencode run --format json` (opencode 1.18.33): JSON lines as in cli-facts.md,
// sessions under $HOME/.fake-opencode. Triggers in the prompt: FAKE_HTTP_<status>, FAKE_HANG.
import { args, hang, logCall, option, readStdin, sessionStore } from './fake-cli-common.mjs';

if (args.includes('--version')) {
  process.stdout.write('1.18.33\n');
  process.exit(0);
}
const stdin = await readStdin();
logCall(stdin);
const sessions = sessionStore('fake-opencode');
const resume = option('--session');
const sessionID = resume ?? `ses_${Date.now().toString(36)}fakeAV2wnNjls`;
const session = resume === undefined ? { messages: [] } : sessions.load(resume);
const line = (value) => process.stdout.write(`${JSON.stringify({ timestamp: Date.now(), sessionID, ...value })}\n`);
if (session === undefined) {
  line({ type: 'error', error: { name: 'NotFoundError', data: { message: `Session not found: ${resume}` } } });
  process.exit(1);
}
if (stdin.includes('FAKE_HANG')) hang();
else {
  line({ type: 'step_start', part: { type: 'step-start' } });
  const injected = /FAKE_HTTP_(\d{3})/.exec(stdin);
  if (injected) {
    const status = Number(injected[1]);
    line({ type: 'error', error: { name: 'APIError', data: { message: `fake injected HTTP ${status}`, statusCode: status, isRetryable: status >= 500, responseBody: '{}' } } });
    process.exitCode = 1;
  } else {
    session.messages.push(stdin);
    sessions.save(sessionID, session);
    line({ type: 'text', part: { type: 'text', text: 'Let me check.' } });
    line({ type: 'tool_use', part: { type: 'tool', tool: 'bash', callID: 'call_1', state: { status: 'completed', input: { command: 'echo TOOL_OK' }, output: 'TOOL_OK\n' } } });
    line({ type: 'step_finish', part: { reason: 'tool-calls', type: 'step-finish', tokens: { total: 18, input: 12, output: 6, reasoning: 0, cache: { read: 0, write: 0 } }, cost: 0.001 } });
    line({ type: 'step_start', part: { type: 'step-start' } });
    line({ type: 'text', part: { type: 'text', text: `PONG from fake (message ${session.messages.length})` } });
    line({ type: 'step_finish', part: { reason: 'stop', type: 'step-finish', tokens: { total: 20, input: 14, output: 4, reasoning: 2, cache: { read: 1, write: 0 } }, cost: 0.002 } });
  }
}
