// Stands in for `pi -p --mode json @<file>` (@mariozechner/pi-coding-agent 0.73.1): JSON lines as
// recorded from the real CLI (recorded/pi-tool.jsonl, recorded/pi-http-400.jsonl; event types in the
// package's docs/json.md): the `session` header, agent/turn/message events with `text_delta`
// updates, `tool_execution_*` for a bash call, `agent_end`. `--version` prints on stderr. Sessions are
// files `$PI_CODING_AGENT_DIR/sessions/--<cwd>--/<time>_<id>.jsonl`; `--session <id>` of another
// directory prints pi's fork question on stderr and exits 0 with nothing on stdout, `--session <path>`
// works from anywhere, an unknown one exits 1. Triggers in the prompt file: FAKE_HTTP_<status> (an
// assistant message with stopReason "error", exit 0), FAKE_TOOL (a bash call of `echo TOOL_OK`, when
// --tools allows bash), FAKE_HANG (a running bash tool in its own process group, pids in $PID_FILE,
// "ready" line; SIGTERM kills the tool and exits 143, SIGINT exits 130 leaving it running, as pi does).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { args, hang, logCall, option } from './fake-cli-common.mjs';

if (args.includes('--version')) {
  process.stderr.write('0.73.1\n');
  process.exit(0);
}
const fileArg = args.at(-1) ?? '';
const promptFile = fileArg.startsWith('@') ? fileArg.slice(1) : undefined;
const prompt = promptFile !== undefined && existsSync(promptFile) ? readFileSync(promptFile, 'utf8') : '';
logCall(prompt);
if (promptFile === undefined) {
  process.stderr.write('fake pi: expected @<prompt file> as the last argument\n');
  process.exit(2);
}
const agentDir = process.env.PI_CODING_AGENT_DIR ?? join(process.env.HOME ?? '.', '.pi', 'agent');
const sessions = join(agentDir, 'sessions');
const folder = `--${process.cwd().replace(/^\//, '').replaceAll('/', '-')}--`;
const line = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

function findSession(key) {
  if (key.includes('/')) return existsSync(key) ? { path: key } : undefined;
  if (!existsSync(sessions)) return undefined;
  for (const dir of readdirSync(sessions)) {
    const name = readdirSync(join(sessions, dir)).find((file) => file.endsWith(`_${key}.jsonl`));
    if (name !== undefined) return { path: join(sessions, dir, name), otherProject: dir !== folder ? dir : undefined };
  }
  return undefined;
}

const key = option('--session');
let session;
if (key !== undefined) {
  const found = findSession(key);
  if (found === undefined) {
    process.stderr.write(`No session found matching '${key}'\n`);
    process.exit(1);
  }
  if (found.otherProject !== undefined) {
    process.stderr.write(`Session found in different project: /${found.otherProject.slice(2, -2).replaceAll('-', '/')}\nFork this session into current directory? [y/N] `);
    process.exit(0);
  }
  session = { path: found.path, header: JSON.parse(readFileSync(found.path, 'utf8').split('\n')[0]) };
} else {
  const id = crypto.randomUUID();
  const timestamp = new Date().toISOString();
  mkdirSync(join(sessions, folder), { recursive: true });
  const header = { type: 'session', version: 3, id, timestamp, cwd: process.cwd() };
  session = { path: join(sessions, folder, `${timestamp.replace(/[:.]/g, '-')}_${id}.jsonl`), header };
  writeFileSync(session.path, `${JSON.stringify(header)}\n`);
}
const history = readFileSync(session.path, 'utf8').split('\n').filter((entry) => entry.includes('"role":"user"')).length;
const user = { role: 'user', content: [{ type: 'text', text: `<file name="${promptFile}">\n${prompt}\n</file>\n` }], timestamp: Date.now() };
writeFileSync(session.path, `${readFileSync(session.path, 'utf8')}${JSON.stringify({ type: 'message', message: user })}\n`);

const model = option('--model') ?? 'fake/fake-model';
const usage = (input, output) => ({ input, output, cacheRead: 2, cacheWrite: 0, totalTokens: input + output + 2, cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 } });
const assistant = (content, extra = {}) => ({
  role: 'assistant',
  content,
  api: 'openai-completions',
  provider: model.split('/')[0],
  model: model.split('/').at(-1),
  usage: usage(12, 6),
  stopReason: 'stop',
  timestamp: Date.now(),
  ...extra,
});
const tools = (option('--tools') ?? (args.includes('--no-tools') ? '' : 'read,bash,edit,write')).split(',');

function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

line(session.header);
line({ type: 'agent_start' });
line({ type: 'turn_start' });
line({ type: 'message_start', message: user });
line({ type: 'message_end', message: user });
const injected = /FAKE_HTTP_(\d{3})/.exec(prompt);
if (injected) {
  const failed = assistant([], { usage: usage(0, 0), stopReason: 'error', errorMessage: `${injected[1]} fake injected HTTP ${injected[1]}` });
  line({ type: 'message_start', message: failed });
  line({ type: 'message_end', message: failed });
  line({ type: 'turn_end', message: failed, toolResults: [] });
  line({ type: 'agent_end', messages: [user, failed] });
  process.exit(0);
}
if (prompt.includes('FAKE_HANG')) {
  // pi's bash tool runs detached (its own process group): only pi's SIGTERM handler reaches it.
  const tool = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { detached: true, stdio: 'ignore' });
  if (process.env.PID_FILE) {
    writeFileSync(`${process.env.PID_FILE}.tmp`, `${process.pid} ${startTime(process.pid)}\n${tool.pid} ${startTime(tool.pid)}\n`);
    renameSync(`${process.env.PID_FILE}.tmp`, process.env.PID_FILE);
  }
  process.on('SIGTERM', () => {
    process.kill(-tool.pid, 'SIGKILL');
    process.exit(143);
  });
  process.on('SIGINT', () => process.exit(130));
  line({ type: 'tool_execution_start', toolCallId: 'call_hang', toolName: 'bash', args: { command: 'sleep 600' } });
  process.stdout.write('ready\n');
  hang();
} else {
  const messages = [user];
  if (prompt.includes('FAKE_TOOL') && tools.includes('bash')) {
    const call = assistant([{ type: 'toolCall', id: 'call_1', name: 'bash', arguments: { command: 'echo TOOL_OK' } }], { stopReason: 'toolUse' });
    line({ type: 'message_start', message: { ...call, content: [] } });
    line({ type: 'message_end', message: call });
    line({ type: 'tool_execution_start', toolCallId: 'call_1', toolName: 'bash', args: { command: 'echo TOOL_OK' } });
    line({ type: 'tool_execution_update', toolCallId: 'call_1', toolName: 'bash', args: { command: 'echo TOOL_OK' }, partialResult: { content: [{ type: 'text', text: 'TOOL_OK\n' }] } });
    line({ type: 'tool_execution_end', toolCallId: 'call_1', toolName: 'bash', result: { content: [{ type: 'text', text: 'TOOL_OK\n' }] }, isError: false });
    const result = { role: 'toolResult', toolCallId: 'call_1', toolName: 'bash', content: [{ type: 'text', text: 'TOOL_OK\n' }], isError: false, timestamp: Date.now() };
    line({ type: 'message_start', message: result });
    line({ type: 'message_end', message: result });
    line({ type: 'turn_end', message: call, toolResults: [result] });
    line({ type: 'turn_start' });
    messages.push(call, result);
  }
  const text = `PONG from fake pi (message ${history + 1}, tools ${tools.join(',')})`;
  const pieces = [text.slice(0, 10), text.slice(10, 20), text.slice(20)];
  const final = assistant([{ type: 'text', text }]);
  line({ type: 'message_start', message: assistant([]) });
  line({ type: 'message_update', assistantMessageEvent: { type: 'text_start', contentIndex: 0, partial: assistant([]) }, message: assistant([]) });
  for (const delta of pieces) line({ type: 'message_update', assistantMessageEvent: { type: 'text_delta', contentIndex: 0, delta, partial: final }, message: final });
  line({ type: 'message_update', assistantMessageEvent: { type: 'text_end', contentIndex: 0, content: text, partial: final }, message: final });
  line({ type: 'message_end', message: final });
  line({ type: 'turn_end', message: final, toolResults: [] });
  line({ type: 'agent_end', messages: [...messages, final] });
}
