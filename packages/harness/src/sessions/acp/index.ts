// The Agent Client Protocol backend and its presets: Gemini CLI, opencode, Qwen Code, GitHub Copilot CLI, Hermes Agent.
export {
  ACP_CONTINUATION_KIND,
  AcpExecutionAdapter,
  createAcpAdapter,
} from './acp-adapter.js';
export {
  DEFAULT_ACP_ADAPTER_OPTIONS,
  type AcpAdapterOptions,
  type SessionApprovalScope,
} from './acp-adapter-options.js';
export {
  createGeminiAcpAdapter,
  createOpenCodeAcpAdapter,
  type AcpPresetOptions,
  type OpenCodeAcpPresetOptions,
} from './acp-presets.js';
export { createQwenAcpAdapter, type QwenAcpPresetOptions } from './qwen-acp-preset.js';
export { createCopilotAcpAdapter, type CopilotAcpPresetOptions } from './copilot-acp-preset.js';
export { createHermesAcpAdapter, type HermesAcpPresetOptions } from './hermes-acp-preset.js';
export type { AcpEngineProvider } from './acp-engine-home.js';
export type { AcpEngineSetup, AcpPreparedEngine } from './acp-engine-setup.js';
