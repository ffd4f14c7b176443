// A fake `hermes` (Hermes Agent, PyPI `hermes-agent`, which cannot be installed here): `hermes acp`
// speaks ACP v1 over stdio with the messages Hermes's own source and docs describe —
// NousResearch/hermes-agent `acp_adapter/server.py` (initialize, session/new with modes and
// available_commands_update, prompt results with usage, session/load, cancel),
// `acp_adapter/permissions.py` (the permission request: `perm-check-N` tool call, the five options,
// an unknown option id or a `cancelled` outcome is deny, allow_session lasts for the ACP session),
// `acp_adapter/tools.py` (`tc-<12 hex>` tool call ids, titles `<tool>: <preview>`, terminal = execute),
// docs `website/docs/user-guide/features/acp.md`; summarized in
// shared/reference/more-engines-facts.md section 9. The prompt text drives it:
//   DANGER[<path>]  the model runs `rm -rf <path>` in the terminal tool: a dangerous command, so
//                   Hermes asks permission; allowed → the path is removed, "deleted"; denied → "not deleted"
//   HANG            streams one chunk and waits for session/cancel → stopReason "cancelled"
//   COUNT           answers "prompts:<n in this process> history:<prompts stored for the session>"
//   anything else   answers "PONG from hermes" in three chunks
// Sessions are stored in $HERMES_HOME/fake-state.json (Hermes keeps them in state.db), so
// session/load works in a new process with the same HERMES_HOME. $FAKE_HERMES_LOG, when set, gets
// one JSON line per start ({pid, argv, env, config}) and per message received ({pid, message}).
import { appendFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';

const [command] = process.argv.slice(2);
if (command !== 'acp') {
  process.stderr.write('usage: hermes [acp|chat|setup|…]\n');
  process.exit(2);
}
const home = process.env.HERMES_HOME ?? join(process.env.HOME ?? '.', '.hermes');
const log = (entry) => process.env.FAKE_HERMES_LOG && appendFileSync(process.env.FAKE_HERMES_LOG, `${JSON.stringify({ pid: process.pid, ...entry })}\n`);
const configFile = join(home, 'config.yaml');
log({ argv: process.argv.slice(2), env: process.env, config: existsSync(configFile) ? readFileSync(configFile, 'utf8') : null });

const stateFile = join(home, 'fake-state.json');
const stored = () => (existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, 'utf8')) : {});
const store = (sessionId, prompt) => {
  const state = stored();
  (state[sessionId] ??= []).push(prompt);
  writeFileSync(stateFile, JSON.stringify(state));
};

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const update = (sessionId, body) => send({ method: 'session/update', params: { sessionId, update: body } });
const usage = { inputTokens: 12, outputTokens: 6, totalTokens: 18, thoughtTokens: 0, cachedReadTokens: 0 };
const MODES = {
  currentModeId: 'default',
  availableModes: [
    { id: 'default', name: 'Default', description: 'Ask before edits.' },
    { id: 'accept_edits', name: 'Accept edits', description: 'Apply edits without asking.' },
    { id: 'dont_ask', name: "Don't ask", description: 'Never ask.' },
  ],
};
const COMMANDS = ['help', 'model', 'tools', 'context', 'reset', 'compact', 'steer', 'queue', 'version'];
const OPTIONS = [
  { optionId: 'allow_once', kind: 'allow_once', name: 'Allow once' },
  { optionId: 'allow_session', kind: 'allow_always', name: 'Allow for session' },
  { optionId: 'allow_always', kind: 'allow_always', name: 'Allow always' },
  { optionId: 'deny', kind: 'reject_once', name: 'Deny' },
  { optionId: 'deny_always', kind: 'reject_always', name: 'Deny always' },
];
const OPTION_TO_HERMES = { allow_once: 'once', allow_session: 'session', allow_always: 'always', deny: 'deny', deny_always: 'deny' };

const sessions = new Map();
let permissionNumber = 0;
let requestId = 0;
const answers = new Map();
let cancelWaiter;

function ask(method, params) {
  const id = requestId++;
  send({ id, method, params });
  return new Promise((resolve) => answers.set(id, resolve));
}

function message(sessionId, pieces) {
  const messageId = randomUUID();
  for (const text of pieces) update(sessionId, { sessionUpdate: 'agent_message_chunk', messageId, content: { type: 'text', text } });
}

/** permissions.py: ACP outcome → Hermes approval; anything but a known selected option is deny. */
function hermesApproval(answer) {
  const outcome = answer?.outcome;
  if (outcome?.outcome !== 'selected') return 'deny';
  return Object.hasOwn(OPTION_TO_HERMES, outcome.optionId) ? OPTION_TO_HERMES[outcome.optionId] : 'deny';
}

async function prompt(id, params) {
  const { sessionId } = params;
  const session = sessions.get(sessionId);
  if (session === undefined) return send({ id, result: { stopReason: 'refusal' } });
  session.prompts += 1;
  const text = params.prompt.map((part) => part.text ?? '').join('');
  store(sessionId, text.slice(0, 200));
  const end = (stopReason) => send({ id, result: { stopReason, usage } });
  const danger = /DANGER\[([^\]]+)\]/.exec(text);
  if (danger) {
    const target = danger[1];
    const shell = `rm -rf ${target}`;
    const toolCallId = `tc-${randomUUID().replaceAll('-', '').slice(0, 12)}`;
    update(sessionId, { sessionUpdate: 'tool_call', toolCallId, title: `terminal: ${shell}`, kind: 'execute', status: 'pending', rawInput: { command: shell } });
    let approval = session.allowed ? 'session' : undefined;
    if (approval === undefined) {
      const description = 'recursive delete';
      const answer = await ask('session/request_permission', {
        sessionId,
        toolCall: {
          toolCallId: `perm-check-${(permissionNumber += 1)}`,
          title: `${description}: ${shell}`,
          kind: 'execute',
          status: 'pending',
          content: [{ type: 'content', content: { type: 'text', text: `${description}\n$ ${shell}` } }],
          rawInput: { command: shell, description },
        },
        options: OPTIONS,
      });
      log({ permissionAnswer: answer });
      approval = hermesApproval(answer);
      if (approval === 'session') session.allowed = true;
    }
    if (approval === 'deny') {
      update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'BLOCKED: the user denied this command.' } }] });
      message(sessionId, ['not ', 'deleted']);
      return end('end_turn');
    }
    rmSync(target, { recursive: true, force: true });
    update(sessionId, { sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', content: [{ type: 'content', content: { type: 'text', text: 'Exit code: 0' } }] });
    message(sessionId, ['deleted']);
    return end('end_turn');
  }
  if (text.includes('HANG')) {
    message(sessionId, ['working']);
    await new Promise((resolve) => {
      cancelWaiter = resolve;
    });
    return end('cancelled');
  }
  if (text.includes('COUNT')) {
    message(sessionId, [`prompts:${session.prompts} history:${(stored()[sessionId] ?? []).length}`]);
    return end('end_turn');
  }
  message(sessionId, ['PONG', ' from', ' hermes']);
  update(sessionId, { sessionUpdate: 'usage_update', size: 128000, used: 18 });
  return end('end_turn');
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const incoming = JSON.parse(line);
  log({ message: incoming });
  if (incoming.method === undefined) {
    const resolve = answers.get(incoming.id);
    answers.delete(incoming.id);
    resolve?.(incoming.result);
    return;
  }
  switch (incoming.method) {
    case 'initialize':
      return send({
        id: incoming.id,
        result: {
          protocolVersion: 1,
          agentInfo: { name: 'hermes-agent', version: '0.19.0' },
          agentCapabilities: { loadSession: true, promptCapabilities: { image: true }, sessionCapabilities: { fork: {}, list: {}, resume: {} } },
          authMethods: [],
        },
      });
    case 'session/new':
    case 'session/load': {
      const loading = incoming.method === 'session/load';
      const sessionId = loading ? incoming.params.sessionId : randomUUID();
      if (loading && !Object.hasOwn(stored(), sessionId)) return send({ id: incoming.id, error: { code: -32002, message: `Session not found: ${sessionId}` } });
      sessions.set(sessionId, { prompts: 0, allowed: false });
      send({ id: incoming.id, result: loading ? { modes: MODES } : { sessionId, modes: MODES } });
      return update(sessionId, { sessionUpdate: 'available_commands_update', availableCommands: COMMANDS.map((name) => ({ name, description: name })) });
    }
    case 'session/prompt':
      return void prompt(incoming.id, incoming.params);
    case 'session/cancel':
      cancelWaiter?.();
      cancelWaiter = undefined;
      return undefined;
    default:
      if (incoming.id !== undefined) send({ id: incoming.id, error: { code: -32601, message: 'Method not found' } });
      return undefined;
  }
});
lines.on('close', () => process.exit(0));
