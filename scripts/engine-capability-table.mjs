// Prints the capability table of docs/engine-sessions.md from each backend's describeCapabilities().
// Usage: node scripts/engine-capability-table.mjs [--write | --check] [<built harness dir>]
//   (default packages/harness/dist). --write replaces the table in docs/engine-sessions.md;
//   --check exits 1 when that table differs from the generated one.
// Constructing the adapters starts nothing; no engine needs to be installed.
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const flags = new Set(process.argv.slice(2).filter((arg) => arg.startsWith('--')));
const [distArg] = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const dist = resolve(distArg ?? 'packages/harness/dist');
const doc = resolve(import.meta.dirname, '../docs/engine-sessions.md');
const harness = await import(pathToFileURL(resolve(dist, 'index.js')).href);

/** [factory name, engine, protocol]: every session backend and every one-shot preset. */
const backends = [
  ['createGeminiAcpAdapter', 'Gemini CLI', 'ACP over stdio (`gemini --acp`)'],
  ['createOpenCodeAcpAdapter', 'opencode', 'ACP over stdio (`opencode acp`)'],
  ['createQwenAcpAdapter', 'Qwen Code', 'ACP over stdio (`qwen --acp`)'],
  ['createCopilotAcpAdapter', 'GitHub Copilot CLI', 'ACP over stdio (`copilot --acp`)'],
  ['createHermesAcpAdapter', 'Hermes Agent (fake-tested: not installable here)', 'ACP over stdio (`hermes acp`)'],
  ['createCodexAppServerAdapter', 'Codex', 'JSON-RPC app-server (`codex app-server`)'],
  ['createClaudeCodeSessionAdapter', 'Claude Code', 'stream-json over stdio (`claude -p --input-format stream-json`)'],
  ['createClaudeAgentSdkAdapter', 'Claude (Agent SDK)', 'in-process `query()` with streaming input (`@anthropic-ai/claude-agent-sdk`)'],
  ['createOmpRpcAdapter', 'oh-my-pi', 'its own JSONL RPC over stdio (`omp --mode rpc`)'],
  ['createGeminiCliAdapter', 'Gemini CLI', 'one-shot CLI (`gemini --output-format json`, `stream-json` when streaming)'],
  ['createOpenCodeAdapter', 'opencode', 'one-shot CLI (`opencode run`)'],
  ['createCodexAdapter', 'Codex', 'one-shot CLI (`codex exec --json`)'],
  ['createClaudeCodeAdapter', 'Claude Code', 'one-shot CLI (`claude -p`, `--output-format stream-json` when streaming)'],
  ['createPiAdapter', 'pi', 'one-shot CLI (`pi -p --mode json @<prompt file>`)'],
  ['createCopilotAdapter', 'GitHub Copilot CLI', 'one-shot CLI (native `copilot -p "" --output-format json`)'],
];

const yes = (value) => (value === true ? 'yes' : 'no');
const rows = [
  '| backend id | engine | protocol | streaming | native approvals | steer | session resume | attachments |',
  '|---|---|---|---|---|---|---|---|',
];
for (const [factory, engine, protocol] of backends) {
  if (typeof harness[factory] !== 'function') throw new Error(`${dist} has no ${factory}: rebuild it, or update this script.`);
  const adapter = harness[factory]({});
  const capabilities = adapter.describeCapabilities();
  rows.push(
    `| \`${adapter.backendId}\` | ${engine} | ${protocol} | ${yes(capabilities.streaming)} | ${yes(capabilities.approvalInterrupts === 'native')} | ${yes(capabilities.steer)} | ${capabilities.continuationSupport} | ${yes(capabilities.attachments)} |`,
  );
  await adapter.dispose?.();
}
const table = rows.join('\n');
if (flags.has('--write') || flags.has('--check')) {
  const text = readFileSync(doc, 'utf8');
  const start = text.indexOf(rows[0]);
  const end = text.indexOf('\n\n', start);
  if (start < 0 || end < 0) throw new Error(`${doc} has no capability table to replace.`);
  const current = text.slice(start, end);
  if (flags.has('--check')) {
    if (current !== table) {
      console.error(`${doc}: the capability table is out of date; run node scripts/engine-capability-table.mjs --write`);
      process.exit(1);
    }
    console.log(`${doc}: the capability table matches describeCapabilities().`);
  } else {
    writeFileSync(doc, `${text.slice(0, start)}${table}${text.slice(end)}`);
    console.log(`${doc}: capability table written (${rows.length - 2} backends).`);
  }
} else {
  console.log(table);
}
