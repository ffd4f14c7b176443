/**
 * @module @agent-assistant/harness/worker-bridge
 * The worker side of Agent Relay (Node.js only): a bridge that runs each turn an orchestrator
 * sends over the relay with a local CLI (Claude Code, Codex, opencode, Gemini CLI, a bash script)
 * or any `ExecutionAdapter`, and replies on the same thread.
 */
export { createAdapterRunner, type AdapterRunnerOptions } from './adapter-runner.js';
export { createBashCliRunner, type BashCliRunnerOptions } from './bash-cli-runner.js';
export type { CliRunInput, CliRunner } from './cli-runner.js';
export { createClaudeCliRunner, createCodexCliRunner, createGeminiCliRunner, createOpenCodeCliRunner } from './cli-runners.js';
export { createRelayWorkerBridge } from './relay-worker-bridge.js';
export type {
  RelayWorkerBridge,
  RelayWorkerBridgeConfig,
  RelayWorkerBridgeEvent,
  RelayWorkerBridgeStats,
  RelayWorkerIgnoredReason,
} from './relay-worker-bridge-options.js';
