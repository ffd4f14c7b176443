// Stands in for a live `claude -p --input-format stream-json --output-format stream-json --verbose
// --permission-prompt-tool stdio --include-partial-messages` (Claude Code 2.1.332), written from the
// shapes recorded from the real CLI (see shared/reference/engine-protocol-facts.md). One process
// serves many turns: each `user` line on stdin is a turn; the process ends when stdin closes.
// Triggers in a turn's text:
//   ASK[<path>]   the model calls Bash `touch <path>`; the host is asked (control_request
//                 can_use_tool); allow → the file is created, deny → it is not
//   TODO          a TodoWrite call (no permission asked), then the answer
//   HANG          nothing more until an interrupt control_request arrives
//   CRASH         exits with code 3 mid-turn
//   FAIL400       a result with is_error and api_error_status 400
//   GARBAGE       a line that is not JSON and an unknown message type before the answer
//   WHOAMI        the answer is `pid=<pid> turn=<n> session=<id> resumed=<id|none>`
//   ARGS          the answer is JSON of argv
//   FLOOD[<n>]    streams <n> text deltas of 65,536 characters (delta i is the digit i % 10
//                 repeated); the result carries their first 6,000,000 characters (one line
//                 under the 8 MiB line cap); appends {"flooded":<n>} to $FAKE_LOG when set
// Dies with a secret on stderr at start-up or when a turn starts: see ../../__fixtures__/leak-secret.mjs.
// Writes its pid to $FAKE_PID_FILE (appending) when set.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { leakSecretAndExit, leaksAt } from '../../__fixtures__/leak-secret.mjs';

const args = process.argv.slice(2);
const option = (name) => args.find((arg) => arg.startsWith(`${name}=`))?.slice(name.length + 1);
if (args.includes('--version')) {
  process.stdout.write('2.1.332 (Claude Code)\n');
  process.exit(0);
}
for (const required of ['-p', '--input-format', '--output-format', '--verbose', '--permission-prompt-tool']) {
  if (!args.includes(required)) {
    process.stderr.write(`fake-claude-session: missing ${required}\n`);
    process.exit(1);
  }
}
if (process.env.FAKE_PID_FILE) appendFileSync(process.env.FAKE_PID_FILE, `${process.pid}\n`);
process.stderr.write('fake-claude-session: started\n');
if (leaksAt('startup')) await leakSecretAndExit();

const resumed = option('--resume');
const sessionId = resumed ?? option('--session-id') ?? '00000000-0000-4000-8000-000000000000';
let turn = 0;
let totalCost = 0;
let pending; // { requestId, path, toolUseId, resolve }
let hanging; // resolve of a HANG turn

const out = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const base = () => ({ session_id: sessionId, uuid: crypto.randomUUID() });
const streamEvent = (event) => out({ type: 'stream_event', event, parent_tool_use_id: null, ...base() });

function streamText(text) {
  streamEvent({ type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', content: [], usage: { input_tokens: 12, output_tokens: 1 } } });
  streamEvent({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  for (const piece of text.match(/.{1,6}/gs) ?? []) {
    streamEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
  }
  out({ type: 'assistant', message: { id: 'msg_fake', role: 'assistant', content: [{ type: 'text', text }] }, parent_tool_use_id: null, ...base() });
  streamEvent({ type: 'content_block_stop', index: 0 });
  streamEvent({ type: 'message_stop' });
}

function result(text, extra = {}) {
  totalCost += 0.0001;
  out({
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: text,
    stop_reason: 'end_turn',
    num_turns: 1,
    total_cost_usd: totalCost,
    usage: { input_tokens: 12, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    permission_denials: [],
    ...base(),
    ...extra,
  });
}

function toolUse(id, name, input) {
  out({ type: 'assistant', message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] }, parent_tool_use_id: null, ...base() });
}

function toolResult(id, content, isError) {
  out({ type: 'user', message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content, is_error: isError }] }, parent_tool_use_id: null, ...base() });
}

async function runTurn(text) {
  turn += 1;
  out({ type: 'system', subtype: 'init', cwd: process.cwd(), tools: ['Bash', 'Read', 'TodoWrite'], model: 'claude-fake', permissionMode: 'default', ...base() });
  out({ type: 'system', subtype: 'status', status: 'requesting', ...base() });
  if (leaksAt('turn')) {
    streamEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'working' } });
    return leakSecretAndExit();
  }
  const flood = /FLOOD\[(\d+)\]/.exec(text);
  if (flood) {
    const count = Number(flood[1]);
    const pieces = Array.from({ length: count }, (_, index) => String(index % 10).repeat(65_536));
    for (const piece of pieces) streamEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } });
    if (process.env.FAKE_LOG) appendFileSync(process.env.FAKE_LOG, `${JSON.stringify({ flooded: count })}\n`);
    result(pieces.join('').slice(0, 6_000_000));
    return;
  }
  if (text.includes('CRASH')) {
    streamEvent({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'about to crash' } });
    process.exit(3);
  }
  if (text.includes('HANG')) {
    await new Promise((resolve) => {
      hanging = resolve;
    });
    out({ type: 'result', subtype: 'error_during_execution', is_error: true, num_turns: 1, total_cost_usd: totalCost, ...base() });
    return;
  }
  if (text.includes('FAIL400')) {
    out({ type: 'result', subtype: 'success', is_error: true, api_error_status: 400, api_error_type: 'invalid_request_error', result: 'API Error: 400 fake injected HTTP 400', total_cost_usd: totalCost, ...base() });
    return;
  }
  if (text.includes('GARBAGE')) {
    process.stdout.write('this is not json\n');
    out({ type: 'brand_new_message_type', payload: { anything: true } });
  }
  if (text.includes('TODO')) {
    const todos = [
      { content: 'Read the code', status: 'completed', activeForm: 'Reading the code' },
      { content: 'Write the fix', status: 'in_progress', activeForm: 'Writing the fix' },
    ];
    toolUse('toolu_todo', 'TodoWrite', { todos });
    toolResult('toolu_todo', 'Todos have been modified successfully.', false);
  }
  const ask = /ASK\[([^\]]+)\]/.exec(text);
  if (ask !== null) {
    const path = ask[1];
    const toolUseId = `toolu_${turn}`;
    const input = { command: `touch ${path}`, description: 'Create the marker' };
    streamText('Running it. ');
    toolUse(toolUseId, 'Bash', input);
    const requestId = crypto.randomUUID();
    const decision = await new Promise((resolve) => {
      pending = { requestId, resolve };
      out({
        type: 'control_request',
        request_id: requestId,
        request: {
          subtype: 'can_use_tool',
          tool_name: 'Bash',
          display_name: 'Bash',
          input,
          description: 'Create the marker',
          permission_suggestions: [
            { type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: `touch ${path}` }], behavior: 'allow', destination: 'localSettings' },
            { type: 'setMode', mode: 'acceptEdits', destination: 'session' },
          ],
          blocked_path: path,
          tool_use_id: toolUseId,
        },
      });
    });
    pending = undefined;
    if (decision === 'interrupted') {
      out({ type: 'result', subtype: 'error_during_execution', is_error: true, num_turns: 1, total_cost_usd: totalCost, ...base() });
      return;
    }
    if (decision.behavior === 'allow') {
      writeFileSync(decision.updatedInput?.command?.slice('touch '.length) ?? path, '');
      toolResult(toolUseId, '(Bash completed with no output)', false);
      const always = Array.isArray(decision.updatedPermissions) ? ' always' : '';
      streamText(`DONE after tool${always}`);
      result(`DONE after tool${always}`);
    } else {
      toolResult(toolUseId, decision.message ?? 'denied', true);
      streamText('DONE without tool');
      result('DONE without tool', { permission_denials: [{ tool_name: 'Bash', tool_use_id: toolUseId, tool_input: input }] });
    }
    return;
  }
  const answer = text.includes('WHOAMI')
    ? `pid=${process.pid} turn=${turn} session=${sessionId} resumed=${resumed ?? 'none'}`
    : text.includes('ARGS')
      ? JSON.stringify(args)
      : 'Hello from the fixture';
  streamText(answer);
  result(answer);
}

const queue = [];
let running = false;
async function drain() {
  if (running) return;
  running = true;
  while (queue.length > 0) await runTurn(queue.shift());
  running = false;
}

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    process.stderr.write('fake-claude-session: bad input line\n');
    return;
  }
  if (message.type === 'user') {
    const content = message.message?.content;
    const text = typeof content === 'string' ? content : (content ?? []).map((part) => part?.text ?? '').join('');
    queue.push(text);
    void drain();
    return;
  }
  if (message.type === 'control_request') {
    const subtype = message.request?.subtype;
    if (subtype === 'initialize') {
      out({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: { pid: process.pid, claude_code_version: '2.1.332', current_permission_mode: 'default' } } });
    } else if (subtype === 'interrupt') {
      out({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: { still_queued: [] } } });
      if (hanging !== undefined) {
        hanging();
        hanging = undefined;
      }
      if (pending !== undefined) pending.resolve('interrupted');
    } else {
      out({ type: 'control_response', response: { subtype: 'error', request_id: message.request_id, error: `unknown subtype ${subtype}` } });
    }
    return;
  }
  if (message.type === 'control_response') {
    const response = message.response;
    if (pending !== undefined && response?.request_id === pending.requestId && response.subtype === 'success') pending.resolve(response.response);
  }
});
process.stdin.on('end', () => {
  const wait = () => (running ? setTimeout(wait, 10) : process.exit(0));
  wait();
});
