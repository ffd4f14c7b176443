// The Agent Client Protocol backend and its Gemini CLI / opencode presets.
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
