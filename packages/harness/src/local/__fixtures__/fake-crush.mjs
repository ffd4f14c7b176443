// Stands in for `crush` 0.96.1 (charmbracelet/crush), printing exactly what its source documents
// (internal/cmd/run.go, internal/cmd/session.go; more-engines-facts.md section 6):
// - `crush run [-q] [-D dir] [-m model] [-s id | -C] [prompt]`: the prompt may come on stdin
//   (prepended); stdout is the final answer as plain text (leading whitespace trimmed, one
//   trailing newline), nothing structured, no usage; a failed run exits 1 with
//   `agent run failed: <error>` on stderr. No session id on stdout.
// - `crush session list --json` → `[{"id","uuid","title","created","modified"}]`.
// - `crush --version` → `crush version v0.96.1` (cobra's version template).
// - `options.disabled_tools` of $XDG_CONFIG_HOME/crush/crush.json hides a tool from the model.
// Sessions live in <data dir>/fake-crush-sessions.json. Triggers in the prompt: FAKE_TOOL (the
// model calls bash `echo TOOL_OK`), FAKE_HTTP_<status>, FAKE_HANG (starts a tool child, writes
// $PID_FILE, prints "ready", hangs).
import { execFileSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { args, hangWithToolChild, logCall, option, readStdin } from './fake-cli-common.mjs';

if (args.includes('--version')) {
  process.stdout.write('crush version v0.96.1\n');
  process.exit(0);
}
const dataDir = option('--data-dir') ?? option('-D') ?? join(process.cwd(), '.crush');
const store = join(dataDir, 'fake-crush-sessions.json');
const load = () => (existsSync(store) ? JSON.parse(readFileSync(store, 'utf8')) : []);
const save = (sessions) => {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(store, JSON.stringify(sessions));
};

if (args[0] === 'session' && args[1] === 'list') {
  logCall('');
  const sessions = load().map(({ id, uuid, title, created, modified }) => ({ id, uuid, title, created, modified }));
  process.stdout.write(args.includes('--json') ? `${JSON.stringify(sessions)}\n` : sessions.map((s) => `${s.id} ${s.title}`).join('\n'));
  process.exit(0);
}
if (args[0] !== 'run') {
  process.stderr.write(`Error: unknown command "${args[0]}" for "crush"\n`);
  process.exit(1);
}
const stdin = await readStdin();
logCall(stdin);
const configFile = join(process.env.XDG_CONFIG_HOME ?? join(process.env.HOME ?? '.', '.config'), 'crush', 'crush.json');
const config = existsSync(configFile) ? JSON.parse(readFileSync(configFile, 'utf8')) : {};
const disabled = new Set(config.options?.disabled_tools ?? []);
const sessions = load();
const wanted = option('--session') ?? option('-s');
let session;
if (wanted !== undefined) {
  session = sessions.find((s) => s.id === wanted || s.id.startsWith(wanted) || s.uuid === wanted);
  if (session === undefined) {
    process.stderr.write(`agent run failed: session not found: ${wanted}\n`);
    process.exit(1);
  }
} else if (args.includes('--continue') || args.includes('-C')) session = sessions.at(-1);
if (session === undefined) {
  const uuid = randomUUID();
  const now = Math.floor(Date.now() / 1000);
  session = { id: createHash('sha256').update(uuid).digest('hex').slice(0, 16), uuid, title: stdin.slice(0, 40), created: now, modified: now, messages: [] };
  sessions.push(session);
}
const injected = /FAKE_HTTP_(\d{3})/.exec(stdin);
if (injected) {
  process.stderr.write(`agent run failed: POST "${config.providers?.custom?.base_url ?? 'https://api.example'}/chat/completions": ${injected[1]} Bad Request {"message":"fake injected HTTP ${injected[1]}"}\n`);
  process.exit(1);
}
if (stdin.includes('FAKE_HANG')) await hangWithToolChild(() => process.stdout.write('ready\n'));
else {
  session.messages.push(stdin);
  session.modified = Math.floor(Date.now() / 1000);
  save(sessions);
  let answer = `PONG from fake crush (message ${session.messages.length})`;
  if (stdin.includes('FAKE_TOOL')) {
    answer = disabled.has('bash') ? 'I have no bash tool here.' : `DONE after tool: ${execFileSync('/bin/sh', ['-c', 'echo TOOL_OK'], { encoding: 'utf8' }).trim()}`;
  }
  process.stdout.write(`${answer}\n`);
}
