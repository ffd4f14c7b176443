// Prints the capability table of docs/engine-sessions.md from each backend's describeCapabilities().
// Usage: node scripts/engine-capability-table.mjs [<built harness dir>]   (default packages/harness/dist)
// Constructing the adapters starts nothing; no engine needs to be installed.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = resolve(process.argv[2] ?? 'packages/harness/dist');
const harness = await import(pathToFileURL(resolve(dist, 'index.js')).href);

/** [factory name, engine, protocol]; factories the build does not have are skipped. */
const backends = [
  ['createGeminiAcpAdapter', 'Gemini CLI', 'ACP over stdio (`gemini --acp`)'],
  ['createOpenCodeAcpAdapter', 'opencode', 'ACP over stdio (`opencode acp`)'],
  ['createCodexAppServerAdapter', 'Codex', 'JSON-RPC app-server (`codex app-server`)'],
  ['createClaudeCodeSessionAdapter', 'Claude Code', 'stream-json over stdio (`claude -p --input-format stream-json`)'],
  ['createGeminiCliAdapter', 'Gemini CLI', 'one-shot CLI (`gemini --output-format json`)'],
  ['createOpenCodeAdapter', 'opencode', 'one-shot CLI (`opencode run`)'],
  ['createCodexAdapter', 'Codex', 'one-shot CLI (`codex exec --json`)'],
  ['createClaudeCodeAdapter', 'Claude Code', 'one-shot CLI (`claude -p`)'],
];

const yes = (value) => (value === true ? 'yes' : 'no');
const rows = [
  '| backend id | engine | protocol | streaming | native approvals | steer | session resume | attachments |',
  '|---|---|---|---|---|---|---|---|',
];
for (const [factory, engine, protocol] of backends) {
  if (typeof harness[factory] !== 'function') continue;
  const adapter = harness[factory]({});
  const capabilities = adapter.describeCapabilities();
  rows.push(
    `| \`${adapter.backendId}\` | ${engine} | ${protocol} | ${yes(capabilities.streaming)} | ${yes(capabilities.approvalInterrupts === 'native')} | ${yes(capabilities.steer)} | ${capabilities.continuationSupport} | ${yes(capabilities.attachments)} |`,
  );
  await adapter.dispose?.();
}
console.log(rows.join('\n'));
