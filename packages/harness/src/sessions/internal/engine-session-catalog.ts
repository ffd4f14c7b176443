import { DEFAULT_INHERITED_ENV } from '../../local/local-command-defaults.js';
import { CLAUDE_INHERITED_ENV } from '../claude-code-session/claude-code-session-options.js';

/** The session backends `probeEngineSessions` knows, in the order it reports them. */
export const ENGINE_SESSION_IDS = /* @__PURE__ */ Object.freeze([
  'gemini-acp',
  'opencode-acp',
  'qwen-acp',
  'copilot-acp',
  'hermes-acp',
  'codex-app-server',
  'claude-code-session',
  'omp-rpc',
  'claude-agent-sdk',
] as const);

/** One of {@link ENGINE_SESSION_IDS}. */
export type EngineSessionId = (typeof ENGINE_SESSION_IDS)[number];

/** The protocol a session backend speaks over the engine's stdio. */
export type EngineSessionProtocol = 'acp' | 'codex-app-server' | 'claude-stream-json' | 'omp-rpc';

/** How to start an engine in session mode just long enough for its handshake. */
export interface EngineSessionEntry {
  label: string;
  protocol: EngineSessionProtocol;
  command: string;
  /** The arguments that put the engine in session mode (the same the backend's preset passes first). */
  args: readonly string[];
  /** Variables the backend's preset passes through by default. */
  inheritEnv: readonly string[];
  /** Variables the preset sets that matter to the handshake (e.g. Qwen Code's no-relaunch switch). */
  env?: Readonly<Record<string, string>> | undefined;
  install: string;
  /** The command a person can run to see what the engine says. */
  manual: string;
  /** An engine loaded as a package in this process (`command` is the package): probed by loading it, nothing spawned. */
  inProcess?: true | undefined;
}

/** The session backends: what each runs, and how to install it. */
export const ENGINE_SESSIONS: Readonly<Record<EngineSessionId, EngineSessionEntry>> = /* @__PURE__ */ Object.freeze({
  'gemini-acp': {
    label: 'Gemini CLI (ACP)',
    protocol: 'acp',
    command: 'gemini',
    args: ['--acp'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(['GEMINI_*', 'GOOGLE_*']),
    install: 'npm install -g @google/gemini-cli',
    manual: 'gemini --acp',
  },
  'opencode-acp': {
    label: 'opencode (ACP)',
    protocol: 'acp',
    command: 'opencode',
    args: ['acp'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(['OPENCODE_*']),
    install: 'npm install -g opencode-ai',
    manual: 'opencode acp',
  },
  'qwen-acp': {
    label: 'Qwen Code (ACP)',
    protocol: 'acp',
    command: 'qwen',
    args: ['--acp'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(['OPENAI_*', 'QWEN_*']),
    env: { QWEN_CODE_NO_RELAUNCH: 'true' },
    // 0.21 and later need Node.js 22.
    install: 'npm install -g @qwen-code/qwen-code@0.15.10',
    manual: 'qwen --acp',
  },
  'copilot-acp': {
    label: 'GitHub Copilot CLI (ACP)',
    protocol: 'acp',
    command: 'copilot',
    args: ['--acp'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(['COPILOT_*', 'GH_TOKEN', 'GITHUB_TOKEN']),
    env: { COPILOT_AUTO_UPDATE: 'false' },
    install: 'npm install -g @github/copilot',
    manual: 'copilot --acp',
  },
  'hermes-acp': {
    label: 'Hermes Agent (ACP)',
    protocol: 'acp',
    command: 'hermes',
    args: ['acp'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(['HERMES_*']),
    install: "pip install 'hermes-agent[acp]'",
    manual: 'hermes acp',
  },
  'codex-app-server': {
    label: 'Codex app-server',
    protocol: 'codex-app-server',
    command: 'codex',
    args: ['app-server'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(['OPENAI_*', 'CODEX_*', 'AZURE_OPENAI_*']),
    install: 'npm install -g @openai/codex',
    manual: 'codex app-server',
  },
  'claude-code-session': {
    label: 'Claude Code (stream-json session)',
    protocol: 'claude-stream-json',
    command: 'claude',
    args: ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-prompt-tool', 'stdio'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(CLAUDE_INHERITED_ENV),
    install: 'npm install -g @anthropic-ai/claude-code',
    manual: 'claude -p --input-format stream-json --output-format stream-json --verbose',
  },
  'omp-rpc': {
    label: 'oh-my-pi (RPC)',
    protocol: 'omp-rpc',
    command: 'omp',
    args: ['--mode', 'rpc'],
    inheritEnv: /* @__PURE__ */ DEFAULT_INHERITED_ENV.concat(['BUN_*']),
    install: 'npm install -g bun @oh-my-pi/pi-coding-agent',
    manual: 'omp --mode rpc',
  },
  'claude-agent-sdk': {
    label: 'Claude (Agent SDK)',
    protocol: 'claude-stream-json',
    command: '@anthropic-ai/claude-agent-sdk',
    args: [],
    inheritEnv: [],
    install: 'npm install @anthropic-ai/claude-agent-sdk',
    manual: "node -e \"import('@anthropic-ai/claude-agent-sdk').then(() => console.log('ok'))\"",
    inProcess: true,
  },
});
