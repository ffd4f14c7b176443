// An agent project's `ask` rule: a turn paused here (a real folder, a loopback OpenAI-compatible
// server) and resumed in another Node process, which loads the project from the folder again,
// builds its agent harness with the built package and applies its rules again.
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runNodeScript } from '../../__fixtures__/run-node-script.js';
import type { HarnessResult } from '../../core/types/result.js';
import { cleanupTempDirs, tempDir } from '../../local/__fixtures__/test-helpers.js';
import { parseProviderProfiles } from '../../providers/profiles/parse-provider-profiles.js';
import { createFakeToolRegistry, createScriptedModel } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { loadAgentProject } from '../load/load-agent-project.js';
import { AGENT_PROJECT_FILES, fastProfiles } from './__fixtures__/agent-project-files.js';
import { createAgentHarness } from './create-agent-harness.js';

const script = fileURLToPath(new URL('./__fixtures__/resume-agent-in-child.mjs', import.meta.url));
const built = fileURLToPath(new URL('../../../dist/index.js', import.meta.url));
const secret = 'agent-child-secret-0123456789abcdef';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  cleanupTempDirs();
});

interface ChatBody {
  messages: { role: string; content: unknown; tool_call_id?: string }[];
}

function writeProject(): { dir: string } {
  const dir = tempDir('agent-project-');
  for (const [path, text] of Object.entries(AGENT_PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir };
}

async function start(replies: FakeServerScript[]) {
  server = await createFakeOpenAICompatibleServer({ replies });
  return { fake: server, profiles: parseProviderProfiles(fastProfiles(server.url)) };
}

const toolMessage = (fake: FakeModelServer, index: number, id: string) =>
  (fake.requests[index]!.body as ChatBody).messages.find((message) => message.role === 'tool' && message.tool_call_id === id)?.content as string;

describe('an agent turn paused on an ask rule, resumed in another process', () => {
  it('pauses on an ask rule here and runs the approved call once in another process that loads the project again', async () => {
    expect(existsSync(built), 'build the package first (npm test does): dist/index.js is missing').toBe(true);
    const { dir } = writeProject();
    const vfs = createNodeFsVfs({ root: dir });
    const { fake, profiles } = await start([{ toolCalls: [{ id: 'call_push', name: 'bash', arguments: { command: 'git push origin main' } }] }, { text: 'Pushed.' }]);
    const tools = createFakeToolRegistry({ bash: () => 'never here' });
    const paused = await createAgentHarness(await loadAgentProject(vfs), { profiles, model: createScriptedModel([]), tools, vfs, continuationSecret: secret }).runTurn({
      assistantId: 'a',
      turnId: 't',
      message: { id: 'm', text: 'Push it.', receivedAt: '2026-01-01T00:00:00.000Z' },
    });
    expect(paused).toMatchObject({ outcome: 'awaiting_approval', metadata: { approvalRequests: [{ id: 'call_push', details: { permissionRule: { tool: 'bash', pattern: 'git push*', action: 'ask' } } }] } });
    expect(tools.calls).toEqual([]);

    const child = await runNodeScript(script, JSON.stringify({ dir, url: fake.url, continuation: paused.continuation, secret, decisions: { call_push: 'approved' } }));
    expect(child.stderr).toBe('');
    expect(child.code).toBe(0);
    const { result, toolCalls } = JSON.parse(child.stdout) as { result: HarnessResult; toolCalls: unknown[] };
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Pushed.' }, usage: { toolCalls: 1 }, metadata: { agentProject: { agent: 'lead' } } });
    expect(toolCalls).toEqual([{ id: 'call_push', name: 'bash', input: { command: 'git push origin main' } }]);
    expect(toolMessage(fake, 1, 'call_push')).toBe('ran git push origin main');
  });

  it('in the other process, a project whose rules now deny the call refuses it even though it was approved', async () => {
    const { dir } = writeProject();
    const vfs = createNodeFsVfs({ root: dir });
    const { fake, profiles } = await start([{ toolCalls: [{ id: 'call_push', name: 'bash', arguments: { command: 'git push origin main' } }] }, { text: 'Not pushed.' }]);
    const paused = await createAgentHarness(await loadAgentProject(vfs), { profiles, model: createScriptedModel([]), tools: createFakeToolRegistry({ bash: () => 'x' }), vfs, continuationSecret: secret }).runTurn({
      assistantId: 'a',
      turnId: 't',
      message: { id: 'm', text: 'Push it.', receivedAt: '2026-01-01T00:00:00.000Z' },
    });
    writeFileSync(join(dir, 'agents', 'lead.md'), AGENT_PROJECT_FILES['agents/lead.md']!.replace('"git push*": ask', '"git push*": deny'));
    const child = await runNodeScript(script, JSON.stringify({ dir, url: fake.url, continuation: paused.continuation, secret, decisions: { call_push: 'approved' } }));
    expect(child.code).toBe(0);
    const { result, toolCalls } = JSON.parse(child.stdout) as { result: HarnessResult; toolCalls: unknown[] };
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'Not pushed.' } });
    expect(toolCalls).toEqual([]);
    expect(JSON.parse(toolMessage(fake, 1, 'call_push'))).toMatchObject({ error: { code: 'permission_denied' } });
  });
});
