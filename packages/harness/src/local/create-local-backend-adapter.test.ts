import { describe, expect, it } from 'vitest';
import { ClaudeCodeExecutionAdapter } from './claude-code-adapter.js';
import { CodexExecutionAdapter } from './codex-adapter.js';
import { createLocalBackendAdapter } from './create-local-backend-adapter.js';
import { GeminiCliExecutionAdapter } from './gemini-cli-adapter.js';
import { LOCAL_BACKEND_IDS } from './local-backend-ids.js';
import { OpenCodeExecutionAdapter } from './opencode-adapter.js';

describe('createLocalBackendAdapter', () => {
  it('creates the preset for each id', () => {
    expect(LOCAL_BACKEND_IDS).toEqual(['claude-code', 'codex', 'gemini-cli', 'opencode', 'crush', 'goose', 'cursor']);
    expect(createLocalBackendAdapter('claude-code', { model: 'sonnet' })).toBeInstanceOf(ClaudeCodeExecutionAdapter);
    expect(createLocalBackendAdapter('codex')).toBeInstanceOf(CodexExecutionAdapter);
    expect(createLocalBackendAdapter('gemini-cli')).toBeInstanceOf(GeminiCliExecutionAdapter);
    expect(createLocalBackendAdapter('opencode')).toBeInstanceOf(OpenCodeExecutionAdapter);
    for (const id of LOCAL_BACKEND_IDS) expect(createLocalBackendAdapter(id).backendId).toBe(id);
  });

  it('throws UnknownBackendError for other ids', () => {
    expect(() => createLocalBackendAdapter('aider')).toThrow(expect.objectContaining({ code: 'HARNESS_ERR_UNKNOWN_BACKEND' }));
  });
});
