// The one list of every engine this package drives, for the engines table of
// docs/engine-sessions.md (scripts/docs/engines-table.mjs writes it; engine-registry.test.ts fails
// when the doc and the table differ, or when an engine id is missing here).
import type { ExecutionAdapter, ExecutionCapabilities } from '../execution/types.js';
import { createLocalBackendAdapter } from '../local/create-local-backend-adapter.js';
import type { LocalBackendId } from '../local/local-backend-ids.js';
import { createCopilotAcpAdapter, createGeminiAcpAdapter, createHermesAcpAdapter, createOpenCodeAcpAdapter, createQwenAcpAdapter } from './acp/index.js';
import { createClaudeAgentSdkAdapter } from './claude-agent-sdk/index.js';
import { createClaudeCodeSessionAdapter } from './claude-code-session/index.js';
import { createCodexAppServerAdapter } from './codex-app-server/index.js';
import { createOmpRpcAdapter } from './omp-rpc/index.js';

/** One engine: what it is, how this package's tests drive it, and its adapter. */
export interface EngineRegistration {
  /** The adapter's `backendId`. */
  id: string;
  /** The engine's name for people. */
  engine: string;
  /** How it runs and what it is started with, e.g. ``one-shot `crush run --quiet` ``. */
  shape: string;
  /** The engine installs from a package registry the CI machine reaches, so the e2e suite runs the real binary. */
  installableHere: boolean;
  /**
   * What the tests run: `real binary` (e2e against the loopback model, plus unit tests with a
   * fake) or `fake executable` (one that prints the engine's documented output; it cannot be
   * installed here).
   */
  testedWith: 'real binary' | 'fake executable';
  /** Its adapter with default options (constructing it starts nothing). */
  create(): ExecutionAdapter;
}

const local = (id: LocalBackendId) => () => createLocalBackendAdapter(id);

/** Every engine, sessions first, then the one-shot CLIs. */
export const ENGINE_REGISTRY: readonly EngineRegistration[] = /* @__PURE__ */ Object.freeze([
  { id: 'gemini-acp', engine: 'Gemini CLI', shape: 'session: ACP (`gemini --acp`)', installableHere: true, testedWith: 'real binary', create: () => createGeminiAcpAdapter() },
  { id: 'opencode-acp', engine: 'opencode', shape: 'session: ACP (`opencode acp`)', installableHere: true, testedWith: 'real binary', create: () => createOpenCodeAcpAdapter() },
  { id: 'qwen-acp', engine: 'Qwen Code', shape: 'session: ACP (`qwen --acp`)', installableHere: true, testedWith: 'real binary', create: () => createQwenAcpAdapter() },
  { id: 'copilot-acp', engine: 'GitHub Copilot CLI', shape: 'session: ACP (`copilot --acp`, native binary)', installableHere: true, testedWith: 'real binary', create: () => createCopilotAcpAdapter() },
  { id: 'hermes-acp', engine: 'Hermes Agent', shape: 'session: ACP (`hermes acp`)', installableHere: false, testedWith: 'fake executable', create: () => createHermesAcpAdapter() },
  { id: 'codex-app-server', engine: 'Codex', shape: 'session: JSON-RPC app-server (`codex app-server`)', installableHere: true, testedWith: 'real binary', create: () => createCodexAppServerAdapter() },
  {
    id: 'claude-code-session',
    engine: 'Claude Code',
    shape: 'session: stream-json (`claude -p --input-format stream-json`)',
    installableHere: true,
    testedWith: 'real binary',
    create: () => createClaudeCodeSessionAdapter(),
  },
  {
    id: 'claude-agent-sdk',
    engine: 'Claude (Agent SDK)',
    shape: 'in-process session: `query()` with streaming input (`@anthropic-ai/claude-agent-sdk`)',
    installableHere: true,
    testedWith: 'real binary',
    create: () => createClaudeAgentSdkAdapter(),
  },
  { id: 'omp-rpc', engine: 'oh-my-pi', shape: 'session: its own JSONL RPC (`omp --mode rpc`, on Bun)', installableHere: true, testedWith: 'real binary', create: () => createOmpRpcAdapter() },
  { id: 'claude-code', engine: 'Claude Code', shape: 'one-shot: `claude -p` (stream-json when streaming)', installableHere: true, testedWith: 'real binary', create: local('claude-code') },
  { id: 'codex', engine: 'Codex', shape: 'one-shot: `codex exec --json`', installableHere: true, testedWith: 'real binary', create: local('codex') },
  { id: 'gemini-cli', engine: 'Gemini CLI', shape: 'one-shot: `gemini --output-format json` (stream-json when streaming)', installableHere: true, testedWith: 'real binary', create: local('gemini-cli') },
  { id: 'opencode', engine: 'opencode', shape: 'one-shot: `opencode run --format json`', installableHere: true, testedWith: 'real binary', create: local('opencode') },
  { id: 'pi', engine: 'pi', shape: 'one-shot: `pi -p --mode json @<prompt file>`', installableHere: true, testedWith: 'real binary', create: local('pi') },
  { id: 'copilot', engine: 'GitHub Copilot CLI', shape: 'one-shot: `copilot -p --output-format json` (native binary)', installableHere: true, testedWith: 'real binary', create: local('copilot') },
  { id: 'crush', engine: 'crush', shape: 'one-shot: `crush run --quiet` (plain text)', installableHere: false, testedWith: 'fake executable', create: local('crush') },
  { id: 'goose', engine: 'goose', shape: 'one-shot: `goose run --output-format stream-json`', installableHere: false, testedWith: 'fake executable', create: local('goose') },
  { id: 'cursor', engine: 'Cursor CLI', shape: 'one-shot: `cursor-agent -p --output-format stream-json`', installableHere: false, testedWith: 'fake executable', create: local('cursor') },
] satisfies EngineRegistration[]);

/** An engine of the multi-engine design that this package has no preset for, because nothing about it could be measured here. */
export interface UnmeasuredEngine {
  engine: string;
  /** The shape the design gives it. */
  shape: string;
}

/**
 * Engines of the design without a preset: dsh (ACP in the design) has no package on the registries
 * this machine reaches and no documentation or protocol facts to test against, so its row says so
 * instead of guessing flags. `createAcpAdapter({ backendId, command, args })` drives any ACP v1 agent.
 */
export const UNMEASURED_ENGINES: readonly UnmeasuredEngine[] = /* @__PURE__ */ Object.freeze([
  { engine: 'dsh', shape: 'session: ACP (the design\'s shape; no preset: use `createAcpAdapter({ command, args })`)' },
]);

const yesNo = (value: boolean | undefined) => (value === undefined ? '—' : value ? 'yes' : 'no');

/** One row's capability cells, from `describeCapabilities()`. */
function capabilityCells(capabilities: ExecutionCapabilities): string[] {
  return [
    yesNo(capabilities.customProvider),
    yesNo(capabilities.streaming === true),
    yesNo(capabilities.approvalInterrupts === 'native'),
    yesNo(capabilities.steer === true),
    yesNo(capabilities.continuationSupport !== 'none'),
  ];
}

/** The header of the engines table (the first line the doc generator looks for). */
export const ENGINES_TABLE_HEADER =
  '| backend id | engine | shape | custom provider | streaming | programmatic approval | same-turn steer | resume | installable here | tested with |';

/**
 * The engines table of docs/engine-sessions.md, one row per registered engine, its capability
 * cells from the adapter's `describeCapabilities()`, then one row per unmeasured engine. Adapters
 * with a `dispose` are disposed.
 */
export async function enginesTable(registry: readonly EngineRegistration[] = ENGINE_REGISTRY, unmeasured: readonly UnmeasuredEngine[] = UNMEASURED_ENGINES): Promise<string> {
  const rows = [ENGINES_TABLE_HEADER, `|${' --- |'.repeat(10)}`];
  for (const entry of registry) {
    const adapter = entry.create();
    try {
      const cells = [`\`${adapter.backendId}\``, entry.engine, entry.shape, ...capabilityCells(adapter.describeCapabilities()), yesNo(entry.installableHere), entry.testedWith];
      rows.push(`| ${cells.join(' | ')} |`);
    } finally {
      await (adapter as { dispose?: () => Promise<void> | void }).dispose?.();
    }
  }
  for (const entry of unmeasured) rows.push(`| — | ${entry.engine} | ${entry.shape} |${' not measured |'.repeat(5)} no | not measured |`);
  return rows.join('\n');
}
