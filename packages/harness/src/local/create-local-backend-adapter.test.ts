import { describe, expect, it } from 'vitest';
import { ClaudeCodeExecutionAdapter } from './claude-code-adapter.js';
import { CodexExecutionAdapter } from './codex-adapter.js';
import { CopilotExecutionAdapter } from './copilot-adapter.js';
import { createLocalBackendAdapter } from './create-local-backend-adapter.js';
import { GeminiCliExecutionAdapter } from './gemini-cli-adapter.js';
import { LOCAL_BACKEND_IDS } from './local-backend-ids.js';
import { OpenCodeExecutionAdapter } from './opencode-adapter.js';
import { PiExecutionAdapter } from './pi-adapter.js';

describe('createLocalBackendAdapter', () => {
  it('creates the preset for each id', () => {
    expect(LOCAL_BACKEND_IDS).toEqual(['claude-code', 'codex', 'gemini-cli', 'opencode', 'pi', 'copilot', 'crush', 'goose', 'cursor']);
    expect(createLocalBackendAdapter('claude-code', { model: 'sonnet' })).toBeInstanceOf(ClaudeCodeExecutionAdapter);
    expect(createLocalBackendAdapter('codex')).toBeInstanceOf(CodexExecutionAdapter);
    expect(createLocalBackendAdapter('gemini-cli')).toBeInstanceOf(GeminiCliExecutionAdapter);
    expect(createLocalBackendAdapter('opencode')).toBeInstanceOf(OpenCodeExecutionAdapter);
    expect(createLocalBackendAdapter('pi', { tools: ['read'] })).toBeInstanceOf(PiExecutionAdapter);
    expect(createLocalBackendAdapter('copilot', { allowTools: ['shell(git)'] })).toBeInstanceOf(CopilotExecutionAdapter);
    for (const id of LOCAL_BACKEND_IDS) expect(createLocalBackendAdapter(id).backendId).toBe(id);
  });

  it('throws UnknownBackendError for other ids', () => {
    expect(() => createLocalBackendAdapter('aider')).toThrow(expect.objectContaining({ code: 'HARNESS_ERR_UNKNOWN_BACKEND' }));
  });
});
