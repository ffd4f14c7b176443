// createAgentHarness over a real folder (the sandboxed Node VFS): a skill and its file loaded in
// a real tool loop against a loopback OpenAI-compatible server, a symlink out of the project
// refused.
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../local/__fixtures__/test-helpers.js';
import { parseProviderProfiles } from '../../providers/profiles/parse-provider-profiles.js';
import { createScriptedModel } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer, type FakeServerScript } from '../../testing/node/index.js';
import { loadAgentProject } from '../load/load-agent-project.js';
import { AGENT_PROJECT_FILES, fastProfiles } from './__fixtures__/agent-project-files.js';
import { createAgentHarness } from './create-agent-harness.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  cleanupTempDirs();
});

interface ChatBody {
  messages: { role: string; content: unknown; tool_call_id?: string }[];
}

function writeProject(): { dir: string; outside: string } {
  const root = tempDir('agent-project-');
  const dir = join(root, 'project');
  for (const [path, text] of Object.entries(AGENT_PROJECT_FILES)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  const outside = join(root, 'outside-secret.txt');
  writeFileSync(outside, 'OUTSIDE-SECRET');
  symlinkSync(outside, join(dir, 'skills', 'release-notes', 'leak.md'));
  return { dir, outside };
}

async function start(replies: FakeServerScript[]) {
  server = await createFakeOpenAICompatibleServer({ replies });
  return { fake: server, profiles: parseProviderProfiles(fastProfiles(server.url)) };
}

const toolMessage = (fake: FakeModelServer, index: number, id: string) =>
  (fake.requests[index]!.body as ChatBody).messages.find((message) => message.role === 'tool' && message.tool_call_id === id)?.content as string;

describe('createAgentHarness over a real folder', () => {
  it('loads a skill and its file from disk in a real tool loop, and refuses a symlink that leaves the project', async () => {
    const { dir } = writeProject();
    const vfs = createNodeFsVfs({ root: dir });
    const project = await loadAgentProject(vfs);
    const { fake, profiles } = await start([
      { toolCalls: [{ id: 'call_skill', name: 'skill', arguments: { name: 'release-notes' } }] },
      { toolCalls: [{ id: 'call_file', name: 'skill', arguments: { name: 'release-notes', path: 'template.md' } }, { id: 'call_leak', name: 'skill', arguments: { name: 'release-notes', path: 'leak.md' } }] },
      { text: 'Done.' },
    ]);
    const result = await createAgentHarness(project, { profiles, model: createScriptedModel([]), vfs }).runTurn({
      assistantId: 'a',
      turnId: 't',
      message: { id: 'm', text: 'Release notes, please.', receivedAt: '2026-01-01T00:00:00.000Z' },
    });
    expect(result).toMatchObject({ outcome: 'completed', metadata: { agentProject: { agent: 'lead', instructions: { source: 'AGENTS.md', path: '/AGENTS.md' } } } });
    expect(toolMessage(fake, 1, 'call_skill')).toContain('NOTES-BODY: fill template.md.');
    expect(toolMessage(fake, 1, 'call_skill')).toContain('- template.md');
    expect(toolMessage(fake, 2, 'call_file')).toBe('## {version}\n');
    expect(JSON.parse(toolMessage(fake, 2, 'call_leak'))).toMatchObject({ error: { code: 'path_not_allowed' } });
    expect(JSON.stringify(fake.requests.map((request) => request.body))).not.toContain('OUTSIDE-SECRET');
  });

});
