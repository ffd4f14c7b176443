// createAgentHarness over execution backends: the capability list (what a backend honours of a
// project) refused by name, never ignored; the agent's rules answering a real ACP engine's
// permission requests in the live session.
import { createMemoryVfs } from '@agent-assistant/vfs';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HarnessError } from '../../core/errors/harness-error.js';
import type { ExecutionPermissionRequest } from '../../execution/types.js';
import { cleanupTempDirs, tempDir } from '../../local/__fixtures__/test-helpers.js';
import { createAcpAdapter, type AcpExecutionAdapter } from '../../sessions/acp/acp-adapter.js';
import { createFakeExecutionAdapter, createFakeToolRegistry } from '../../testing/index.js';
import { loadAgentProject } from '../load/load-agent-project.js';
import { ruleSet } from '../permissions/__fixtures__/rule-set.js';
import { AGENT_PROJECT_FILES } from './__fixtures__/agent-project-files.js';
import { engineVerdict } from './agent-backend.js';
import type { AgentTurnInput } from './agent-harness-types.js';
import { createAgentHarness } from './create-agent-harness.js';
import { FeatureNotSupportedError } from './feature-not-supported-error.js';

const adapters: AcpExecutionAdapter[] = [];
afterEach(async () => {
  await Promise.all(adapters.splice(0).map((adapter) => adapter.dispose()));
  cleanupTempDirs();
});

const input = (text: string, turnId = 'turn-1'): AgentTurnInput => ({
  assistantId: 'assistant-test',
  turnId,
  sessionId: 'chat-1',
  message: { id: `m-${turnId}`, text, receivedAt: '2026-01-01T00:00:00.000Z' },
});

async function project(overrides: Record<string, string> = {}) {
  const vfs = createMemoryVfs({ ...AGENT_PROJECT_FILES, ...overrides });
  return { vfs, project: await loadAgentProject(vfs) };
}

const completed = { status: 'completed' as const, output: { text: 'done' } };

describe('createAgentHarness on a backend: the capability list', () => {
  it('refuses, naming every feature, an agent that needs what the backend does not honour', async () => {
    const { vfs, project: loaded } = await project();
    const backend = createFakeExecutionAdapter({ backendId: 'plain-cli', steps: [completed] });
    let thrown: unknown;
    try {
      createAgentHarness(loaded, { backend, vfs, tools: createFakeToolRegistry({ bash: () => 'x' }) });
    } catch (error) {
      thrown = error;
    }
    expect(FeatureNotSupportedError.isInstance(thrown)).toBe(true);
    expect(HarnessError.isInstance(thrown)).toBe(true);
    expect(thrown).toMatchObject({
      code: 'HARNESS_ERR_FEATURE_NOT_SUPPORTED',
      feature: 'tools',
      features: ['tools', 'skills', 'subagents', 'permissionRules', 'model', 'sampling'],
      backendId: 'plain-cli',
      agent: 'lead',
    });
    expect((thrown as Error).message).toContain('needs tools, skills, subagents, permissionRules, model, sampling');
    expect(backend.requests).toEqual([]);
  });

  it('refuses the instructions only where a backend says it does not take them', async () => {
    const { vfs, project: loaded } = await project();
    const backend = createFakeExecutionAdapter({ capabilities: { agentProject: { instructions: false } }, steps: [] });
    expect(() => createAgentHarness(loaded, { agent: 'bare', backend, vfs })).toThrow(expect.objectContaining({ features: ['instructions'] }) as Error);
  });

  it('runs an agent whose needs the backend honours: the project prompt reaches it, the result names the agent and instructions', async () => {
    const { vfs, project: loaded } = await project();
    const backend = createFakeExecutionAdapter({ steps: [completed] });
    const result = await createAgentHarness(loaded, { agent: 'bare', backend, vfs }).runTurn(input('hi'));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'done' }, metadata: { agentProject: { agent: 'bare', instructions: { source: 'AGENTS.md' } } } });
    expect(backend.requests[0]!.instructions.systemPrompt).toMatch(/^BARE-PROMPT\n\n# Project instructions \(AGENTS\.md\)\n\n# Repository rules/);
  });

  it('refuses a backend and a model together', async () => {
    const { vfs, project: loaded } = await project();
    const backend = createFakeExecutionAdapter({ steps: [] });
    expect(() => createAgentHarness(loaded, { agent: 'bare', backend, model: { nextStep: () => Promise.reject(new Error('no')) }, vfs })).toThrow(expect.objectContaining({ field: 'backend' }) as Error);
  });
});

describe("an engine's permission requests decided by the agent's rules", () => {
  const rules = ruleSet([
    ['bash', { 'git status*': 'allow', 'git push*': 'ask', 'rm *': 'deny' }],
    ['edit', 'deny'],
    ['webfetch', 'allow'],
  ]);
  const verdict = (request: Partial<ExecutionPermissionRequest>) => engineVerdict(rules, { title: 'x', ...request });

  it('maps a command to bash, other work to its kind, and asks when no rule matches', () => {
    expect(verdict({ kind: 'command', command: 'git status --short' })).toBe('approve');
    expect(verdict({ kind: 'command', command: 'git push origin main' })).toBe('ask');
    expect(verdict({ kind: 'command', command: 'rm -rf /' })).toBe('reject');
    expect(verdict({ kind: 'command', command: 'ls' })).toBe('ask');
    expect(verdict({ kind: 'command' })).toBe('ask');
    expect(verdict({ kind: 'edit' })).toBe('reject');
    expect(verdict({ kind: 'fetch' })).toBe('approve');
    expect(verdict({ kind: 'read' })).toBe('ask');
    expect(verdict({})).toBe('ask');
    expect(verdict({ kind: '__proto__' as never })).toBe('ask');
    expect(engineVerdict(ruleSet([['*', 'deny']]), { title: 'x', kind: 'read' })).toBe('reject');
  });

  it('answers a real ACP engine in the live session: allowed runs, denied is refused, ask pauses the turn for a person', async () => {
    const dir = tempDir('agent-acp-');
    const [allowed, asked, denied] = [join(dir, 'ALLOWED'), join(dir, 'ASKED'), join(dir, 'DENIED')];
    const { vfs, project: loaded } = await project({
      'agent-project.yaml': 'agents:\n  ops: {}\n',
      'agents/ops.md': ['---', 'mode: primary', 'permission:', '  bash:', '    "touch *ALLOWED": allow', '    "touch *ASKED": ask', '    "touch *DENIED": deny', '---', 'OPS-PROMPT', ''].join('\n'),
    });
    const backend = createAcpAdapter({
      backendId: 'fake-acp',
      command: process.execPath,
      args: [join(import.meta.dirname, '..', '..', 'sessions', 'acp', '__fixtures__', 'fake-acp-agent.mjs')],
      cwd: dir,
      env: { FAKE_ACP_STYLE: 'opencode' },
      killGraceMs: 300,
    });
    adapters.push(backend);
    const harness = createAgentHarness(loaded, { backend, vfs, continuationSecret: 'agent-acp-secret-0123456789abcdef' });
    const paused = await harness.runTurn(input(`TWICE[${allowed}|${asked}]`));
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', metadata: { agentProject: { agent: 'ops' } } });
    expect(existsSync(allowed)).toBe(true);
    expect(existsSync(asked)).toBe(false);
    const [request] = paused.metadata!.approvalRequests as { id: string; metadata: { command: string } }[];
    expect(request!.metadata.command).toBe(`touch ${asked}`);
    const done = await harness.resumeTurn(paused.continuation, { type: 'approval', decisions: { [request!.id]: 'approved' } });
    expect(done).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'ran it' } });
    expect(existsSync(asked)).toBe(true);

    const refused = await harness.runTurn(input(`run SHELL[${denied}]`, 'turn-2'));
    expect(refused.outcome).toBe('completed');
    expect(refused.assistantMessage?.text).toContain('rejected');
    expect(existsSync(denied)).toBe(false);
  });
});
