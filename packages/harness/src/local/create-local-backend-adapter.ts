import { ClaudeCodeExecutionAdapter, type ClaudeCodeAdapterOptions } from './claude-code-adapter.js';
import { CodexExecutionAdapter, type CodexAdapterOptions } from './codex-adapter.js';
import { CopilotExecutionAdapter, type CopilotAdapterOptions } from './copilot-adapter.js';
import { CrushExecutionAdapter, type CrushAdapterOptions } from './crush-adapter.js';
import { CursorExecutionAdapter, type CursorAdapterOptions } from './cursor-adapter.js';
import { GeminiCliExecutionAdapter, type GeminiCliAdapterOptions } from './gemini-cli-adapter.js';
import { GooseExecutionAdapter, type GooseAdapterOptions } from './goose-adapter.js';
import { knownBackendId } from './internal/local-backend-catalog.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandExecutionAdapter } from './local-command-adapter.js';
import { OpenCodeExecutionAdapter, type OpenCodeAdapterOptions } from './opencode-adapter.js';
import { PiExecutionAdapter, type PiAdapterOptions } from './pi-adapter.js';

/**
 * The preset adapter for a backend id, e.g. from configuration.
 * @throws UnknownBackendError for an unknown id; HarnessConfigError for invalid options.
 */
export function createLocalBackendAdapter(id: 'claude-code', options?: ClaudeCodeAdapterOptions): ClaudeCodeExecutionAdapter;
export function createLocalBackendAdapter(id: 'codex', options?: CodexAdapterOptions): CodexExecutionAdapter;
export function createLocalBackendAdapter(id: 'gemini-cli', options?: GeminiCliAdapterOptions): GeminiCliExecutionAdapter;
export function createLocalBackendAdapter(id: 'opencode', options?: OpenCodeAdapterOptions): OpenCodeExecutionAdapter;
export function createLocalBackendAdapter(id: 'pi', options?: PiAdapterOptions): PiExecutionAdapter;
export function createLocalBackendAdapter(id: 'copilot', options?: CopilotAdapterOptions): CopilotExecutionAdapter;
export function createLocalBackendAdapter(id: 'crush', options?: CrushAdapterOptions): CrushExecutionAdapter;
export function createLocalBackendAdapter(id: 'goose', options?: GooseAdapterOptions): GooseExecutionAdapter;
export function createLocalBackendAdapter(id: 'cursor', options?: CursorAdapterOptions): CursorExecutionAdapter;
export function createLocalBackendAdapter(id: string, options?: LocalCliPresetOptions): LocalCommandExecutionAdapter;
export function createLocalBackendAdapter(id: string, options: LocalCliPresetOptions = {}): LocalCommandExecutionAdapter {
  switch (knownBackendId(id)) {
    case 'claude-code':
      return new ClaudeCodeExecutionAdapter(options);
    case 'codex':
      return new CodexExecutionAdapter(options);
    case 'gemini-cli':
      return new GeminiCliExecutionAdapter(options);
    case 'opencode':
      return new OpenCodeExecutionAdapter(options);
    case 'pi':
      return new PiExecutionAdapter(options);
    case 'copilot':
      return new CopilotExecutionAdapter(options);
    case 'crush':
      return new CrushExecutionAdapter(options);
    case 'goose':
      return new GooseExecutionAdapter(options);
    case 'cursor':
      return new CursorExecutionAdapter(options);
  }
}
