// A fake ACP agent (Agent Client Protocol over stdio, JSON-RPC 2.0 NDJSON), written from the
// protocol and from what gemini --acp and opencode acp were seen to send. The prompt text drives it:
//   SHELL[<path>]  asks permission to `touch <path>`; on an allow option it creates the file
//                  and answers "ran it"; on a reject it answers "not run" (FAKE_ACP_STYLE=opencode:
//                  it reports the tool failed and ends without text, as opencode does)
//   TWICE[<a>|<b>] asks for <a>, then for <b>
//   HANG           streams one chunk and waits for session/cancel (FAKE_ACP_IGNORE_CANCEL=1: ignores it)
//   CRASH          streams one chunk and exits 7
//   PLAN           sends a plan
//   NOISE          sends lines that are not JSON-RPC first
//   REFUSE         ends with stopReason "refusal"
//   COUNT          answers "prompts:<n> session:<id>"
//   FLOOD[<n>]     streams <n> chunks of 65,536 characters (chunk i is the digit i % 10 repeated),
//                  logs {flooded:<n>} and ends end_turn
//   anything else  answers "PONG from fake" in three chunks
// Dies with a secret on stderr at start-up or when a prompt arrives: see ../../__fixtures__/leak-secret.mjs.
// Every message received is appended to $FAKE_ACP_LOG (one JSON line with the pid), when set;
// $FAKE_ACP_ENV_LOG, when set, gets one JSON line per start: {pid, argv, env}.
// FAKE_ACP_STYLE=qwen speaks like Qwen Code 0.15.10 and FAKE_ACP_STYLE=copilot like GitHub Copilot
// CLI 1.0.102 `--acp`, as measured (shared/reference/more-engines-facts.md sections 2 and 3):
//   qwen     permission options proceed_always_project / proceed_always_user / proceed_once / cancel,
//            no tool_call before the request; usage only in an empty chunk's `_meta.usage` after each
//            model call (the result is just {stopReason}); a cancel while HANGing fails the prompt with
//            JSON-RPC -32603 {details:"Request was aborted."}; session/load replays the session's
//            history as updates (user_message_chunk, agent_message_chunk "REPLAYED …") before answering
//   copilot  a pending tool_call, then options allow_once / allow_always / reject_once; a rejection
//            fails the tool call ("The user rejected this tool call.") and says
//            "Info: Operation cancelled by user"; usage in the prompt result
import { appendFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { leakSecretAndExit, leaksAt } from '../../__fixtures__/leak-secret.mjs';

if (leaksAt('startup')) await leakSecretAndExit();
if (process.env.FAKE_ACP_ENV_LOG) appendFileSync(process.env.FAKE_ACP_ENV_LOG, `${JSON.stringify({ pid: process.pid, argv: process.argv.slice(2), env: process.env })}\n`);

const style = process.env.FAKE_ACP_STYLE ?? 'gemini';
const log = (entry) => process.env.FAKE_ACP_LOG && appendFileSync(process.env.FAKE_ACP_LOG, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const update = (sessionId, body) => send({ method: 'session/update', params: { sessionId, update: body } });
const chunk = (sessionId, text) => update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

const sessions = new Map();
let nextRequestId = 0;
const waitingAnswers = new Map();
let cancelWaiter;

function ask(method, params) {
  const id = nextRequestId++;
  send({ id, method, params });
  return new Promise((resolve) => waitingAnswers.set(id, resolve));
}

const OPTIONS = {
  gemini: [
    { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
    { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
  ],
  opencode: [
    { optionId: 'once', kind: 'allow_once', name: 'Allow once' },
    { optionId: 'always', kind: 'allow_always', name: 'Always allow' },
    { optionId: 'reject', kind: 'reject_once', name: 'Reject' },
  ],
  qwen: [
    { optionId: 'proceed_always_project', name: 'Always Allow in project: touch *', kind: 'allow_always' },
    { optionId: 'proceed_always_user', name: 'Always Allow for user: touch *', kind: 'allow_always' },
    { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
  ],
  copilot: [
    { optionId: 'allow_once', kind: 'allow_once', name: 'Allow once' },
    { optionId: 'allow_always', kind: 'allow_always', name: 'Always allow' },
    { optionId: 'reject_once', kind: 'reject_once', name: 'Deny' },
  ],
};
const QWEN_USAGE = { inputTokens: 12, outputTokens: 6, totalTokens: 18, thoughtTokens: 0, cachedReadTokens: 0 };
const qwenUsage = (sessionId) => update(sessionId, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '' }, _meta: { usage: QWEN_USAGE, durationMs: 249 } });
const description = 'Run a shell command for the test';
const permissionToolCall = (toolCallId, command) =>
  style === 'qwen'
    ? { toolCallId, status: 'pending', title: `${command} (${description})`, content: [], locations: [], kind: 'execute', rawInput: { command, description } }
    : style === 'copilot'
      ? { toolCallId, title: description, kind: 'execute', status: 'pending', rawInput: { command, commands: [command] } }
      : { toolCallId, status: 'pending', title: command, kind: 'execute', ...(style === 'opencode' ? { rawInput: { command } } : {}) };

async function shell(sessionId, session, path, index) {
  const toolCallId = `call_${session.prompts}_${index}`;
  const command = `touch ${path}`;
  if (style === 'opencode') {
    update(sessionId, { sessionUpdate: 'tool_call', toolCallId, title: 'bash', kind: 'execute', status: 'pending', rawInput: {} });
    update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress', title: command, rawInput: { command } });
  }
  if (style === 'copilot') update(sessionId, { sessionUpdate: 'tool_call', toolCallId, title: description, kind: 'execute', status: 'pending', rawInput: { command, description } });
  if (session.always) return run();
  const answer = await ask('session/request_permission', { sessionId, options: OPTIONS[style], toolCall: permissionToolCall(toolCallId, command) });
  log({ permissionAnswer: answer });
  const outcome = answer?.outcome;
  if (outcome?.outcome === 'cancelled') return 'cancelled';
  const option = OPTIONS[style].find((candidate) => candidate.optionId === outcome?.optionId);
  if (option?.kind === 'allow_always') session.always = true;
  if (option?.kind === 'allow_once' || option?.kind === 'allow_always') return run();
  if (style === 'opencode') update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', rawOutput: { error: 'The user rejected permission to use this specific tool call.' } });
  if (style === 'copilot') {
    update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', rawOutput: { message: 'The user rejected this tool call.', code: 'rejected' } });
    chunk(sessionId, 'Info: Operation cancelled by user');
  }
  return 'rejected';

  function run() {
    writeFileSync(path, '');
    update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed' });
    return 'ran';
  }
}

async function prompt(id, params) {
  const { sessionId } = params;
  const session = sessions.get(sessionId);
  if (!session) return send({ id, error: { code: -32602, message: 'unknown session' } });
  session.prompts += 1;
  const text = params.prompt.map((part) => part.text ?? '').join('');
  const end = (stopReason, extra = {}) => send({ id, result: { stopReason, ...extra } });
  if (leaksAt('turn')) {
    chunk(sessionId, 'working');
    return leakSecretAndExit();
  }
  const flood = /FLOOD\[(\d+)\]/.exec(text);
  if (flood) {
    const count = Number(flood[1]);
    for (let index = 0; index < count; index += 1) chunk(sessionId, String(index % 10).repeat(65_536));
    log({ flooded: count });
    return end('end_turn');
  }
  const shellMatch = /SHELL\[([^\]]+)\]/.exec(text);
  const twice = /TWICE\[([^|\]]+)\|([^\]]+)\]/.exec(text);
  if (text.includes('NOISE')) {
    process.stdout.write('this is not json\n[1,2,3]\n{"jsonrpc":"2.0","id":99,"result":{}}\n');
    update(sessionId, { sessionUpdate: 'tool_call', title: 'missing id' });
  }
  if (shellMatch || twice) {
    const paths = shellMatch ? [shellMatch[1]] : [twice[1], twice[2]];
    const outcomes = [];
    for (const [index, path] of paths.entries()) {
      const outcome = await shell(sessionId, session, path, index);
      if (outcome === 'cancelled') return end('cancelled');
      outcomes.push(outcome);
    }
    if (style === 'opencode' && outcomes.includes('rejected')) return end('end_turn', { usage: { inputTokens: 10, outputTokens: 0, totalTokens: 10 } });
    if (style === 'copilot' && outcomes.includes('rejected')) return end('end_turn', { usage: { inputTokens: 36, outputTokens: 18, totalTokens: 54, cachedReadTokens: 0, cachedWriteTokens: 0 } });
    chunk(sessionId, outcomes.includes('rejected') ? 'not run' : 'ran it');
    if (style === 'qwen') {
      qwenUsage(sessionId);
      return end('end_turn');
    }
    return end('end_turn', { usage: { inputTokens: 20, outputTokens: 3, totalTokens: 23 } });
  }
  if (text.includes('HANG')) {
    chunk(sessionId, 'working');
    await new Promise((resolve) => {
      cancelWaiter = resolve;
    });
    if (process.env.FAKE_ACP_IGNORE_CANCEL === '1') return undefined;
    if (style === 'qwen') return send({ id, error: { code: -32603, message: 'Internal error', data: { details: 'Request was aborted.' } } });
    return end('cancelled');
  }
  if (text.includes('CRASH')) {
    chunk(sessionId, 'about to crash');
    setTimeout(() => process.exit(7), 10);
    return undefined;
  }
  if (text.includes('PLAN')) {
    update(sessionId, { sessionUpdate: 'plan', entries: [{ content: 'look', status: 'completed', priority: 'high' }, { content: 'fix', status: 'in_progress', priority: 'weird' }] });
  }
  if (text.includes('REFUSE')) return end('refusal');
  if (text.includes('COUNT')) {
    chunk(sessionId, `prompts:${session.prompts} session:${sessionId}`);
    return end('end_turn');
  }
  for (const piece of ['PONG', ' from', ' fake']) chunk(sessionId, piece);
  if (style === 'qwen') {
    qwenUsage(sessionId);
    return end('end_turn');
  }
  return end('end_turn', { usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 } });
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const message = JSON.parse(line);
  log({ message });
  if (message.method === undefined) {
    const resolve = waitingAnswers.get(message.id);
    waitingAnswers.delete(message.id);
    resolve?.(message.result);
    return;
  }
  switch (message.method) {
    case 'initialize':
      return send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: true }, agentInfo: { name: 'fake-acp', version: '0.0.1' }, authMethods: [] } });
    case 'session/new': {
      const sessionId = `ses_${process.pid}_${sessions.size}`;
      sessions.set(sessionId, { prompts: 0, always: false });
      return send({ id: message.id, result: { sessionId } });
    }
    case 'session/load': {
      const { sessionId } = message.params;
      if (!String(sessionId).startsWith('ses_')) return send({ id: message.id, error: { code: -32002, message: 'no such session' } });
      sessions.set(sessionId, { prompts: 0, always: false });
      if (style === 'qwen') {
        update(sessionId, { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'an earlier prompt' } });
        chunk(sessionId, 'REPLAYED earlier answer');
        qwenUsage(sessionId);
      }
      return send({ id: message.id, result: {} });
    }
    case 'session/prompt':
      return void prompt(message.id, message.params);
    case 'session/cancel':
      cancelWaiter?.();
      cancelWaiter = undefined;
      return undefined;
    default:
      if (message.id !== undefined) send({ id: message.id, error: { code: -32601, message: 'method not found' } });
      return undefined;
  }
});
lines.on('close', () => process.exit(0));
