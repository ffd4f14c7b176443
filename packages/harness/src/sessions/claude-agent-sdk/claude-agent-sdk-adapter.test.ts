// createClaudeAgentSdkAdapter without its optional peer (this workspace does not install
// @anthropic-ai/claude-agent-sdk; the real SDK runs in e2e/tests/claude-agent-sdk.e2e.test.mjs).
import { describe, expect, it } from 'vitest';
import { createHarness, HarnessConfigError } from '../../index.js';
import { turnInput } from '../../local/__fixtures__/test-helpers.js';
import { createClaudeAgentSdkAdapter } from './claude-agent-sdk-adapter.js';

describe('createClaudeAgentSdkAdapter', () => {
  it('says what it can do: native approvals through canUseTool, streaming, resume; no steering', () => {
    const adapter = createClaudeAgentSdkAdapter();
    expect(adapter.backendId).toBe('claude-agent-sdk');
    expect(adapter.describeCapabilities()).toMatchObject({ approvalInterrupts: 'native', streaming: true, steer: false, continuationSupport: 'opaque-resume' });
    expect(adapter.describeCapabilities().notes?.[0]).toMatch(/In-process/);
  });

  it('refuses the CLI-only options and a bad executable path by name', () => {
    expect(() => createClaudeAgentSdkAdapter({ command: 'claude' } as never)).toThrow(HarnessConfigError);
    expect(() => createClaudeAgentSdkAdapter({ pathToClaudeCodeExecutable: '' })).toThrow(/pathToClaudeCodeExecutable/);
    expect(() => createClaudeAgentSdkAdapter({ permissionMode: 'bypassPermissions' as never })).toThrow(HarnessConfigError);
    expect(() => createClaudeAgentSdkAdapter({ sdk: {} as never })).toThrow(/option sdk/);
  });

  it('without the SDK installed a turn fails, naming the package and how to install it', async () => {
    const backend = createClaudeAgentSdkAdapter();
    const result = await createHarness({ backend }).runTurn(turnInput('hello'));
    expect(result.outcome).toBe('failed');
    expect(JSON.stringify(result.metadata?.['error'])).toContain('npm install @anthropic-ai/claude-agent-sdk');
    await backend.dispose();
  });
});
