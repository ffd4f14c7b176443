// Stands in for `omp --mode rpc` (oh-my-pi 18.2.3): the same JSONL shapes, recorded from the real
// engine against a fake model (shared/reference/more-engines-facts.md §4). Triggers in the prompt:
//   ASK      a bash call that asks first (extension_ui_request select Approve/Deny)
//   HANG     one text delta, then the model call never ends (until `abort`)
//   WAIT_STEER  one text delta, then waits for a `steer` and answers with it
//   GARBAGE  hostile lines first (not JSON, a __proto__ id, an endless id, a wrong type)
//   ERROR    the model call fails like an HTTP 400 (stopReason "error")
//   CRASH    the engine exits mid-turn
// Appends every command it reads to $FAKE_OMP_LOG; prints its argv and HOME in get_state.
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const out = (value) => process.stdout.write(`${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
const log = (entry) => process.env.FAKE_OMP_LOG && appendFileSync(process.env.FAKE_OMP_LOG, `${JSON.stringify(entry)}\n`);
const sessionId = process.argv.includes('--resume') ? process.argv[process.argv.indexOf('--resume') + 1] : '019aa0aa-0000-7000-8000-00000000f00d';
log({ started: true, argv: process.argv.slice(2), home: process.env.HOME, key: process.env.OMP_HARNESS_API_KEY });
let pendingAsk;
let running;
let steered = [];

const assistantEnd = (text, extra = {}) => ({
  type: 'message_end',
  message: { role: 'assistant', content: text === '' ? [] : [{ type: 'text', text }], api: 'openai-completions', provider: 'fake', model: 'fake-model', usage: { input: 12, output: 6, cacheRead: 2, cacheWrite: 0, totalTokens: 18, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 } }, stopReason: 'stop', ...extra },
});
const say = (text) => {
  out({ type: 'message_start', message: { role: 'assistant', content: [] } });
  for (const piece of text.match(/.{1,6}/g) ?? []) out({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: piece } });
  out(assistantEnd(text));
};
const end = () => {
  running = undefined;
  out({ type: 'extension_ui_request', id: 'w2', method: 'setWidget', widgetKey: 'autoresearch' });
  out({ type: 'agent_end', messages: [] });
};

function runPrompt(message) {
  out({ type: 'agent_start' });
  out({ type: 'turn_start' });
  if (message.includes('GARBAGE')) {
    out('not json {');
    out({ type: 'extension_ui_request', id: '__proto__', method: 'select', title: 'Pick a theme', options: ['dark', 'light'] });
    out({ type: 'tool_execution_start', toolCallId: 'x'.repeat(10_000), toolName: 'bash', args: {} });
    out({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', delta: 42 } });
    out({ type: 'response', id: 5, success: 'yes' });
  }
  if (message.includes('CRASH')) process.exit(3);
  if (message.includes('HANG') || message.includes('WAIT_STEER')) {
    running = message.includes('HANG') ? 'hang' : 'wait_steer';
    out({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta: 'thinking… ' } });
    return;
  }
  if (message.includes('ERROR')) {
    out(assistantEnd('', { stopReason: 'error', errorMessage: '400 fake injected HTTP 400\nraw-http-request=/home/x/.omp/logs/1.json' }));
    return end();
  }
  if (message.includes('ASK')) {
    out(assistantEnd('', { stopReason: 'toolUse' }));
    pendingAsk = 'ui-1';
    out({ type: 'extension_ui_request', id: 'ui-1', method: 'select', title: 'Allow tool: bash\nCommand: touch MARKER', options: ['Approve', 'Deny'] });
    out({ type: 'tool_execution_start', toolCallId: 'call_1', toolName: 'bash', args: { command: 'touch MARKER' } });
    return;
  }
  say(`PONG${steered.length > 0 ? ` after ${steered.join(', ')}` : ''}`);
  steered = [];
  end();
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line);
  log(command);
  const respond = (data) => out({ id: command.id, type: 'response', command: command.type, success: true, ...(data === undefined ? {} : { data }) });
  switch (command.type) {
    case 'get_state':
      return respond({ sessionId, argv: process.argv.slice(2), home: process.env.HOME });
    case 'prompt':
      respond();
      return runPrompt(command.message);
    case 'steer':
      steered.push(command.message);
      respond();
      if (running === 'wait_steer') {
        say(`PONG after ${steered.join(', ')}`);
        steered = [];
        end();
      }
      return;
    case 'abort':
      respond();
      if (running === 'hang') {
        out(assistantEnd('', { stopReason: 'aborted' }));
        end();
      }
      return;
    case 'extension_ui_response': {
      if (command.id !== pendingAsk) return;
      pendingAsk = undefined;
      const approved = command.value === 'Approve';
      out({ type: 'tool_execution_end', toolCallId: 'call_1', toolName: 'bash', result: { content: [{ type: 'text', text: approved ? '(no output)' : 'Tool call denied by user: bash' }] }, isError: !approved });
      say(approved ? 'DONE after tool' : 'OK, not running it');
      return end();
    }
    default:
      out({ id: command.id, type: 'response', command: command.type, success: false, error: `Unknown command: ${command.type}` });
  }
});
setTimeout(() => out({ type: 'ready', protocolVersion: 1, supportedProtocolVersions: [1, 2] }), 5);
