// `agent-assistant run --project DIR` as a real process of the built bin, against the loopback
// fake model server: the example project's agent (prompt, AGENTS.md, model, sampling, skill,
// grants), an `ask` rule paused and resumed by `resume` in another process, and usage errors.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, fixtureExecutable, tempDir } from '../local/__fixtures__/test-helpers.js';
import { createFakeOpenAICompatibleServer } from '../testing/node/create-fake-openai-compatible-server.js';
import type { FakeModelServer } from '../testing/node/fake-model-server-types.js';
import { binPath, cliEnv, runBin as runCliBin, type CliRun } from './__fixtures__/cli-process.js';

const example = fileURLToPath(new URL('../../../../examples/agent-project/project', import.meta.url));
const SECRET = 'test-continuation-secret-0123456789';

let home: string;
let server: FakeModelServer;
let profiles: string;
let workspace: string;

interface ChatBody {
  temperature?: number;
  tools?: { function: { name: string } }[];
  messages: { role: string; content: unknown; tool_call_id?: string }[];
}

function runBin(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runCliBin(args, { cwd: home, env: cliEnv(home, env) });
}

function folder(files: Record<string, string>): string {
  const root = tempDir('run-project-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

beforeAll(async () => {
  expect(existsSync(binPath), 'build the package first (npm test does)').toBe(true);
  home = tempDir('agent-assistant-project-');
  workspace = join(home, 'ws');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.md'), 'hello from the workspace\n');
  server = await createFakeOpenAICompatibleServer();
  profiles = join(home, 'profiles.json');
  writeFileSync(
    profiles,
    JSON.stringify({
      profiles: [{ id: 'local', provider: 'fake', protocol: 'openai-chat', model: 'fake-model', endpoint: server.url, authMode: 'none' }],
      aliases: { fast: 'local' },
    }),
  );
});

afterEach(() => {
  expect(server.pending(), 'every scripted reply was used').toBe(0);
});

afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

describe('agent-assistant run --project', () => {
  it("runs the example project's default agent: its prompt and AGENTS.md, its model and sampling, its granted tools and skill", async () => {
    server.enqueue(
      { toolCalls: [{ id: 'call_skill', name: 'skill', arguments: { name: 'release-notes' } }] },
      { toolCalls: [{ id: 'call_read', name: 'workspace_read', arguments: { path: 'README.md' } }] },
      { text: 'Release notes drafted.' },
    );
    const start = server.requests.length;
    const result = await runBin(['run', '--project', example, '--profiles', profiles, '--profile', 'local', '--workspace', workspace, '--prompt', 'Draft the notes.', '--json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; runner?: string; result?: { metadata?: Record<string, unknown> } });
    expect(events[0]).toMatchObject({ type: 'turn_started', runner: `project ${example} agent assistant, model fast · default profile local (openai-chat fake-model)` });
    expect(events.at(-1)?.result?.metadata?.agentProject).toMatchObject({ agent: 'assistant', instructions: { source: 'AGENTS.md', path: '/AGENTS.md' } });
    const [first, second, third] = server.requests.slice(start).map((request) => request.body as ChatBody);
    expect(first!.messages[0]!.content).toMatch(/^You are the repository assistant\.[\s\S]*\n\n# Project instructions \(AGENTS\.md\)\n\n# Working in this repository/);
    expect(first!.temperature).toBe(0.2);
    // Granted by both bindings and offered by the CLI: workspace_read and workspace_search (bash is granted, but the CLI has none).
    expect(first!.tools!.map((tool) => tool.function.name)).toEqual(['workspace_search', 'workspace_read', 'skill', 'task']);
    expect(JSON.stringify(second!.messages)).toContain('Read `template.md` in this skill');
    expect(JSON.stringify(third!.messages)).toContain('hello from the workspace');
  });

  it('pauses on an ask rule (exit 3); resume, in another process, rebuilds the same agent from the signed settings', async () => {
    const project = folder({
      'agent-project.yaml': 'agents:\n  reader:\n    tools: [workspace_read]\n',
      'agents/reader.md': '---\nmode: primary\npermission:\n  workspace_read: ask\n---\nREADER-PROMPT\n',
    });
    const file = join(home, 'paused-project.json');
    const env = { AGENT_ASSISTANT_CONTINUATION_SECRET: SECRET };
    server.enqueue({ toolCalls: [{ id: 'call_1', name: 'workspace_read', arguments: { path: 'README.md' } }] });
    const paused = await runBin(['run', '--project', project, '--agent', 'reader', '--profiles', profiles, '--profile', 'local', '--workspace', workspace, '--prompt', 'Read it', '--continuation-out', file], env);
    expect(paused.code).toBe(3);
    expect(paused.stderr).toContain('approval needed: [call_1]');
    expect(paused.stderr).toContain('The permission rule workspace_read: ask');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { settings: Record<string, unknown> };
    expect(stored.settings).toMatchObject({ project, agent: 'reader', profiles, profile: 'local', workspace });

    server.enqueue({ text: 'Read: hello.' });
    const resumed = await runBin(['resume', '--continuation', file, '--approve', 'call_1'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toBe('Read: hello.\n');
    const body = server.requests.at(-1)!.body as ChatBody;
    expect(body.messages[0]!.content).toBe('READER-PROMPT');
    expect(body.messages.find((message) => message.role === 'tool')?.content).toContain('hello from the workspace');
  });

  it.each([
    [['run', '--agent', 'x', '--profiles', 'p', '--profile', 'q', '--prompt', 'hi'], /--agent names an agent of --project DIR/],
    [['run', '--project', 'p', '--profiles', 'x', '--system', 'S', '--prompt', 'hi'], /--system is not for --project/],
    [['run', '--project', 'p', '--profiles', 'x', '--workspace', 'w', '--require-approval', 'workspace_read', '--prompt', 'hi'], /--require-approval is not for --project/],
    [['run', '--project', 'p', '--prompt', 'hi'], /--project needs --profiles FILE/],
  ])('exits 2 with a fix for %j', async (args, message) => {
    const result = await runBin(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 for a project that does not load, an unknown agent, or a backend that cannot honour the agent', async () => {
    const broken = folder({ 'agent-project.yaml': 'agents:\n  a:\n    skills: [missing]\n', 'agents/a.md': 'A\n' });
    const notLoading = await runBin(['run', '--project', broken, '--profiles', profiles, '--profile', 'local', '--prompt', 'hi']);
    expect(notLoading.code).toBe(2);
    expect(notLoading.stderr).toContain('does not load');
    expect(notLoading.stderr).toContain('agent-project.yaml:3: agents.a.skills names "missing"');

    const unknown = await runBin(['run', '--project', example, '--agent', 'nobody', '--profiles', profiles, '--prompt', 'hi']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no agent "nobody"');

    const claude = fixtureExecutable(tempDir(), 'claude', 'fake-claude.mjs');
    const backend = await runBin(['run', '--project', example, '--backend', 'claude-code', '--backend-command', claude, '--prompt', 'hi']);
    expect(backend.code).toBe(2);
    expect(backend.stderr).toContain('features: skills, subagents, permissionRules, model, sampling');
  });
});
