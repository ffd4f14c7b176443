// Local CLI backends. Node.js only at run time: `node:` modules load lazily inside `execute` and
// `probeLocalBackends`, so importing this folder keeps the root entry Worker-safe.
export { backendContinuationFrom, BACKEND_CONTINUATION_METADATA_KEY } from './backend-continuation.js';
export { buildLocalPrompt, type BuildLocalPromptOptions } from './build-local-prompt.js';
export {
  ClaudeCodeExecutionAdapter,
  createClaudeCodeAdapter,
  type ClaudeCodeAdapterOptions,
  type ClaudeCodePermissionMode,
} from './claude-code-adapter.js';
export { CodexExecutionAdapter, createCodexAdapter, type CodexAdapterOptions, type CodexSandboxMode } from './codex-adapter.js';
export {
  CopilotExecutionAdapter,
  createCopilotAdapter,
  type CopilotAdapterOptions,
  type CopilotProviderOptions,
} from './copilot-adapter.js';
export { createLocalBackendAdapter } from './create-local-backend-adapter.js';
export { createCrushAdapter, CrushExecutionAdapter, type CrushAdapterOptions } from './crush-adapter.js';
export { createCursorAdapter, CursorExecutionAdapter, type CursorAdapterOptions } from './cursor-adapter.js';
export { createGooseAdapter, GooseExecutionAdapter, type GooseAdapterOptions, type GooseMode } from './goose-adapter.js';
export type { OpenAiCompatibleEndpoint } from './openai-compatible-endpoint.js';
export * from './errors/index.js';
export {
  createGeminiCliAdapter,
  GeminiCliExecutionAdapter,
  type GeminiApprovalMode,
  type GeminiCliAdapterOptions,
} from './gemini-cli-adapter.js';
export { LOCAL_BACKEND_IDS, type LocalBackendId } from './local-backend-ids.js';
export type { LocalCliPresetOptions } from './local-cli-preset-options.js';
export type { LocalSpawnFn } from './local-spawn.js';
export type {
  NodeChildProcessLike,
  NodeReadableLike,
  NodeSpawnOptionsLike,
  NodeSystemErrorLike,
  NodeWritableLike,
} from '../process/node-types.js';
export { createLocalCommandAdapter, LocalCommandExecutionAdapter } from './local-command-adapter.js';
export { DEFAULT_INHERITED_ENV, DEFAULT_LOCAL_COMMAND_OPTIONS } from './local-command-defaults.js';
export type {
  LocalCommandAdapterConfig,
  LocalCommandExit,
  LocalCommandInvocationContext,
  LocalCommandOutputContext,
  LocalCommandParsedOutput,
  LocalCommandPreparedRun,
} from './local-command-options.js';
export { createOpenCodeAdapter, OpenCodeExecutionAdapter, type OpenCodeAdapterOptions } from './opencode-adapter.js';
export {
  createPiAdapter,
  PI_DEFAULT_TOOLS,
  PiExecutionAdapter,
  type PiAdapterOptions,
  type PiProviderApi,
  type PiProviderOptions,
} from './pi-adapter.js';
export {
  DEFAULT_PROBE_OPTIONS,
  probeLocalBackends,
  requireLocalBackend,
  type EngineProbeKind,
  type LocalBackendProbe,
  type ProbeLocalBackendsOptions,
} from './probe-local-backends.js';
