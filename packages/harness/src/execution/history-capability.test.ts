import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import { createClaudeCodeAdapter } from '../local/claude-code-adapter.js';
import { createCodexAdapter } from '../local/codex-adapter.js';
import { createGeminiCliAdapter } from '../local/gemini-cli-adapter.js';
import { createOpenCodeAdapter } from '../local/opencode-adapter.js';
import { createCopilotAdapter } from '../local/copilot-adapter.js';
import { createPiAdapter } from '../local/pi-adapter.js';
import { LocalCommandExecutionAdapter } from '../local/local-command-adapter.js';
import { OpenRouterExecutionAdapter } from '../providers/openrouter/openrouter-execution-adapter.js';
import { createAgentRelayExecutionAdapter } from '../agent-relay/execution-adapter/agent-relay-execution-adapter.js';
import { createGeminiAcpAdapter } from '../sessions/acp/acp-presets.js';
import { createClaudeCodeSessionAdapter } from '../sessions/claude-code-session/claude-code-session-execution-adapter.js';
import { createCodexAppServerAdapter } from '../sessions/codex-app-server/codex-app-server-execution-adapter.js';
import { startResponder, type Responder } from '../agent-relay/__fixtures__/start-responder.js';
import { createMemoryRelay } from '../testing/memory-relay.js';
import { createTurnInput } from '../testing/create-turn-input.js';
import { checkExecutionRequest } from './execution-request-schema.js';
import type { ExecutionAdapter, ExecutionRequest } from './types.js';
import type { HarnessHistoryMessage } from '../shared/types/turn-input.js';

const history: HarnessHistoryMessage[] = [
  { role: 'user', text: 'My name is Ada.' },
  { role: 'assistant', text: 'Nice to meet you.' },
];
const request: ExecutionRequest = {
  assistantId: 'a',
  turnId: 't',
  message: { id: 'm', text: 'What is my name?', receivedAt: '2026-01-01T00:00:00Z' },
  instructions: { systemPrompt: 'Be brief.' },
  history,
};

let responder: Responder | undefined;
afterEach(() => {
  responder?.stop();
  responder = undefined;
});

const historyReasons = (adapter: ExecutionAdapter) =>
  adapter
    .negotiate(request)
    .reasons.filter((reason) => reason.code === 'history_unsupported')
    .map((reason) => reason.severity);

describe('history capability of the built-in backends', () => {
  it('the relay and OpenRouter declare history: true and accept a request with history', () => {
    for (const adapter of [
      createAgentRelayExecutionAdapter({ relay: createMemoryRelay(), workerName: 'w' }),
      new OpenRouterExecutionAdapter({ apiKey: 'test-key', model: 'openai/gpt-5-mini' }),
    ]) {
      expect(adapter.describeCapabilities().history).toBe(true);
      expect(historyReasons(adapter)).toEqual([]);
    }
  });

  it('the CLI presets and the engine sessions declare history: false and block a request with history', () => {
    for (const adapter of [
      createClaudeCodeAdapter(),
      createCodexAdapter(),
      createGeminiCliAdapter(),
      createOpenCodeAdapter(),
      createPiAdapter(),
      createCopilotAdapter(),
      createGeminiAcpAdapter(),
      createCodexAppServerAdapter(),
      createClaudeCodeSessionAdapter(),
    ]) {
      expect(adapter.describeCapabilities().history).toBe(false);
      expect(historyReasons(adapter)).toEqual(['blocking']);
    }
  });

  it('a LocalCommand backend says what its config says; the relay can be told otherwise', () => {
    const base = {
      backendId: 'echo',
      command: 'echo',
      buildArgs: () => [],
      parseOutput: () => ({ status: 'completed' as const, output: { text: 'x' } }),
    };
    const capabilities = {
      toolUse: 'none',
      structuredToolCalls: false,
      continuationSupport: 'none',
      approvalInterrupts: 'none',
      traceDepth: 'minimal',
      attachments: false,
    } as const;
    expect(historyReasons(new LocalCommandExecutionAdapter({ ...base, capabilities }))).toEqual(['blocking']);
    expect(historyReasons(new LocalCommandExecutionAdapter({ ...base, capabilities: { ...capabilities, history: true } }))).toEqual([]);
    expect(() => new LocalCommandExecutionAdapter({ ...base, capabilities: { ...capabilities, history: 'yes' as never } })).toThrow(HarnessConfigError);
    const relay = createAgentRelayExecutionAdapter({ relay: createMemoryRelay(), workerName: 'w', capabilities: { history: false } });
    expect(historyReasons(relay)).toEqual(['blocking']);
  });

  it('the relay forwards the history of a harness turn to its worker', async () => {
    const relay = createMemoryRelay();
    const adapter = createAgentRelayExecutionAdapter({ relay, workerName: 'worker', orchestratorName: 'chat' });
    responder = startResponder(relay, 'worker', (message) => ({
      result: { backendId: 'worker', status: 'completed', output: { text: `${message.request.history?.length ?? 0} earlier messages` } },
    }));
    const result = await createHarness({ backend: adapter }).runTurn(createTurnInput({ history }));
    expect(result.assistantMessage?.text).toBe('2 earlier messages');
    expect(responder.requests[0]?.request.history).toEqual(history);
  });
});

describe('checkExecutionRequest: history', () => {
  it('keeps a well-formed history and names a malformed one', () => {
    const good = checkExecutionRequest(request, 'b');
    expect(good.ok && good.request.history).toEqual(history);
    const bad = checkExecutionRequest({ ...request, history: [{ role: 'system', text: 'x' }] }, 'b');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.result.error?.message).toMatch(/request\.history\.0\.role/);
  });
});
