import { createMemoryVfs } from '@agent-assistant/vfs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import { createOpenAICompatibleModel } from '../../providers/openai-compatible/create-openai-compatible-model.js';
import { createTurnInput } from '../../testing/index.js';
import { createFakeOpenAICompatibleServer, type FakeModelServer } from '../../testing/node/index.js';
import { ruleSet } from '../permissions/__fixtures__/rule-set.js';
import { withPermissionRules } from '../permissions/with-permission-rules.js';
import { createSkillToolRegistry } from './create-skill-tool-registry.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface ChatBody {
  tools?: { function: { name: string; description: string; parameters: unknown } }[];
  messages: { role: string; content: unknown; tool_call_id?: string }[];
}

const vfs = createMemoryVfs({
  '/skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Release notes.\n---\nNOTES-BODY',
  '/skills/release-notes/template.md': '## {version}\n- {change}',
  '/skills/secret-rotation/SKILL.md': 'ROTATION-BODY',
});
const skills = [
  { name: 'release-notes', description: 'Write release notes from merged pull requests.', directory: '/skills/release-notes', instructions: 'NOTES-BODY: use template.md.' },
  { name: 'secret-rotation', description: 'Rotate credentials.', directory: '/skills/secret-rotation', instructions: 'ROTATION-BODY' },
];

describe('the skill tool in a real tool loop against an OpenAI-compatible server', () => {
  it('offers names and descriptions, loads the body and a file on demand, and a rule can refuse a skill', async () => {
    server = await createFakeOpenAICompatibleServer({
      replies: [
        { toolCalls: [{ id: 'call_load', name: 'skill', arguments: { name: 'release-notes' } }] },
        { toolCalls: [{ id: 'call_file', name: 'skill', arguments: { name: 'release-notes', path: 'template.md' } }] },
        { toolCalls: [{ id: 'call_secret', name: 'skill', arguments: { name: 'secret-rotation' } }] },
        { text: '## 1.2.0\n- Faster builds' },
      ],
    });
    const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'fake-model', retry: { initialDelayMs: 1, maxDelayMs: 2 } });
    const tools = withPermissionRules(createSkillToolRegistry({ vfs, skills }), ruleSet([['skill', { '*': 'allow', 'secret-*': 'deny' }]]));
    const result = await createHarness({ model, tools }).runTurn(createTurnInput({ text: 'Write the release notes for 1.2.0.' }));
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: '## 1.2.0\n- Faster builds' } });

    const bodies = server.requests.map((request) => request.body as ChatBody);
    const offered = bodies[0]!.tools!;
    expect(offered.map((tool) => tool.function.name)).toEqual(['skill']);
    expect(offered[0]!.function.description).toContain('- release-notes: Write release notes from merged pull requests.');
    expect(offered[0]!.function.description).toContain('- secret-rotation: Rotate credentials.');
    // Bodies are never sent until loaded: not in the tools, not in the prompt.
    expect(JSON.stringify(bodies[0])).not.toMatch(/NOTES-BODY|ROTATION-BODY/);

    const toolMessage = (index: number, id: string) => bodies[index]!.messages.find((message) => message.role === 'tool' && message.tool_call_id === id)!.content as string;
    expect(toolMessage(1, 'call_load')).toContain('NOTES-BODY: use template.md.');
    expect(toolMessage(1, 'call_load')).toContain('- template.md');
    expect(toolMessage(2, 'call_file')).toBe('## {version}\n- {change}');
    expect(JSON.parse(toolMessage(3, 'call_secret'))).toMatchObject({ error: { code: 'permission_denied' } });
    expect(JSON.stringify(bodies[3])).not.toContain('ROTATION-BODY');
  });
});
