// Stands in for the native `copilot -p "" --output-format json` (@github/copilot 1.0.102): JSON lines
// `{type, data, id, timestamp, parentId}` and a final `{type: "result", sessionId, exitCode, usage}`,
// as recorded from the real CLI (recorded/copilot-denied-tool.jsonl, recorded/copilot-http-400.jsonl);
// event names from its session-events.schema.json. The prompt is read from stdin. `--usage-output-file`
// gets the token report (recorded/copilot-usage.json). Sessions under $COPILOT_HOME/session-state;
// `--session-id=<id>` creates one, `--resume=<id>` continues it (unknown: exit 1, Copilot's stderr).
// Triggers in the prompt: FAKE_NO_AUTH (without a provider or token: Copilot's sign-in error, exit 1), FAKE_HTTP_<status> (model.call_failure, session.error, exit 1),
// FAKE_SHELL[<cmd>] (one bash call: read-only commands (echo, ls, cat) run, others only when
// `--allow-tool=shell(<first word>)` or an allow-all switch is given, else denied with
// `code: "denied"`), FAKE_HANG (a running tool child, pids in $PID_FILE; SIGTERM or SIGINT kill the
// tool, print `assistant.idle {aborted: true}` and exit 0, as the native binary does).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { args, hang, logCall, option, readStdin } from './fake-cli-common.mjs';

if (args.includes('--version')) {
  process.stdout.write("GitHub Copilot CLI 1.0.102.\nRun 'copilot update' to check for updates.\n");
  process.exit(0);
}
const stdin = await readStdin();
logCall(stdin);
if (option('-p') === undefined) {
  process.stderr.write("error: a value is required for '--prompt <text>' but none was supplied\n");
  process.exit(2);
}
if (process.env.COPILOT_OFFLINE === 'true' && !process.env.COPILOT_PROVIDER_BASE_URL) {
  process.stderr.write('Offline mode requires a local model provider. Set COPILOT_PROVIDER_BASE_URL to configure one.\n');
  process.exit(1);
}
if (!process.env.COPILOT_PROVIDER_BASE_URL && !process.env.COPILOT_GITHUB_TOKEN && !process.env.GH_TOKEN && !process.env.GITHUB_TOKEN && stdin.includes('FAKE_NO_AUTH')) {
  process.stderr.write('Error: No authentication information found.\n\nCopilot can be authenticated with GitHub using an OAuth Token or a Fine-Grained Personal Access Token.\n\nTo authenticate, you can use any of the following methods:\n  • Start \'copilot\' and run the \'/login\' command\n  • Set the COPILOT_GITHUB_TOKEN, GH_TOKEN, or GITHUB_TOKEN environment variable\n  • Run \'gh auth login\' to authenticate with the GitHub CLI\n');
  process.exit(1);
}
const state = join(process.env.COPILOT_HOME ?? join(process.env.HOME ?? '.', '.copilot'), 'session-state');
mkdirSync(state, { recursive: true });
const resume = option('--resume');
const sessionId = resume ?? option('--session-id') ?? crypto.randomUUID();
const file = join(state, `${sessionId}.json`);
if (resume !== undefined && !existsSync(file)) {
  process.stderr.write(`Error: No session, task, or name matched '${resume}'.\n`);
  process.exit(1);
}
const session = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : { messages: [] };
session.messages.push(stdin);
writeFileSync(file, JSON.stringify(session));

const model = option('--model') ?? process.env.COPILOT_MODEL ?? 'claude-sonnet-4.5';
let parentId = null;
const line = (type, data, extra = {}) => {
  const id = crypto.randomUUID();
  process.stdout.write(`${JSON.stringify({ type, data, id, timestamp: new Date().toISOString(), parentId, ...extra })}\n`);
  parentId = id;
};
const result = (exitCode) =>
  process.stdout.write(
    `${JSON.stringify({ type: 'result', timestamp: new Date().toISOString(), sessionId, exitCode, usage: { premiumRequests: 0, totalApiDurationMs: 30, sessionDurationMs: 800, codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] } } })}\n`,
  );
const usageFile = option('--usage-output-file');
const writeUsage = (calls) => {
  if (usageFile === undefined) return;
  const usage = { inputTokens: 12 * calls, outputTokens: 6 * calls, cacheReadTokens: 0, cacheWriteTokens: 0 };
  writeFileSync(usageFile, JSON.stringify({ totalPremiumRequestCost: 0, modelMetrics: { [model]: { requests: { count: calls, cost: 0 }, usage } }, lastCallInputTokens: 12, lastCallOutputTokens: 6 }, null, 2));
};
const allowAll = args.some((arg) => ['--allow-all-tools', '--yolo', '--allow-all'].includes(arg)) || process.env.COPILOT_ALLOW_ALL === 'true';
const allowed = new Set(args.filter((arg) => arg.startsWith('--allow-tool=')).map((arg) => arg.slice('--allow-tool='.length)));

line('session.tools_updated', { model }, { ephemeral: true });
line('user.message', { content: stdin, transformedContent: `<current_datetime>${new Date().toISOString()}</current_datetime>\n\n${stdin}`, turnId: '0' });
line('assistant.turn_start', { turnId: '0' });
const injected = /FAKE_HTTP_(\d{3})/.exec(stdin);
if (injected) {
  const status = Number(injected[1]);
  line('model.call_failure', { statusCode: status, failureKind: 'api', errorMessage: `${status} fake injected HTTP ${status}`, isByok: true }, { ephemeral: true });
  line('session.error', { errorType: 'query', message: `${status} fake injected HTTP ${status}`, statusCode: status });
  result(1);
  process.exit(1);
}
let calls = 1;
const shell = /FAKE_SHELL\[([^\]]+)\]/.exec(stdin)?.[1];
if (stdin.includes('FAKE_HANG')) {
  const tool = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000)'], { stdio: 'ignore' });
  const stop = () => {
    tool.kill('SIGKILL');
    line('assistant.idle', { aborted: true }, { ephemeral: true });
    process.stderr.write('Error executing prompt: Error: Cannot invoke native session after disposal has started\n');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  if (process.env.PID_FILE) {
    writeFileSync(`${process.env.PID_FILE}.tmp`, `${process.pid}\n${tool.pid}\n`);
    renameSync(`${process.env.PID_FILE}.tmp`, process.env.PID_FILE);
  }
  line('tool.execution_start', { toolCallId: 'call_hang', toolName: 'bash', arguments: { command: 'sleep 600', description: 'Wait' } });
  hang();
} else {
  if (shell !== undefined) {
    const toolCallId = 'call_fake_1';
    const word = shell.trim().split(/\s+/)[0];
    const readOnly = ['echo', 'ls', 'cat'].includes(word);
    line('assistant.message', { messageId: 'm0', model, content: '', toolRequests: [{ toolCallId, name: 'bash', arguments: { command: shell, description: 'Run it' }, type: 'function' }], turnId: '0' });
    line('tool.execution_start', { toolCallId, toolName: 'bash', arguments: { command: shell, description: 'Run it' }, turnId: '0' });
    if (readOnly || allowAll || allowed.has(`shell(${word})`)) {
      const output = execFileSync('/bin/sh', ['-c', shell], { encoding: 'utf8' });
      line('tool.execution_complete', { toolCallId, model, turnId: '0', success: true, result: { content: `${output}<shellId: 0 completed with exit code 0>` } });
    } else {
      line('tool.execution_complete', {
        toolCallId,
        model,
        turnId: '0',
        success: false,
        error: {
          message: 'Permission denied because no interactive user response was available. Retry in an interactive session so the user can approve it, or try an alternative that does not require this permission.',
          code: 'denied',
        },
      });
    }
    line('assistant.turn_end', { turnId: '0' });
    line('assistant.turn_start', { turnId: '1' });
    calls = 2;
  }
  const text = `PONG from fake copilot (message ${session.messages.length})`;
  line('assistant.message_start', { messageId: 'm1' }, { ephemeral: true });
  for (const piece of [text.slice(0, 10), text.slice(10, 20), text.slice(20)]) line('assistant.message_delta', { messageId: 'm1', deltaContent: piece }, { ephemeral: true });
  line('assistant.message', { messageId: 'm1', model, content: text, toolRequests: [], turnId: String(calls - 1) });
  line('assistant.turn_end', { turnId: String(calls - 1) });
  line('assistant.idle', {}, { ephemeral: true });
  writeUsage(calls);
  result(0);
}
