import { createMemoryVfs } from '@agent-assistant/vfs';
import { describe, expect, it } from 'vitest';
import { loadAgentProject } from '../load/load-agent-project.js';
import { describeAgentProject } from './describe-agent-project.js';

const files = {
  'agent-project.yaml': [
    'default_agent: lead',
    'agents:',
    '  lead:',
    '    tools: all',
    '    skills: [notes]',
    '    secrets: [GITHUB_TOKEN]',
    '    subagents: all',
    '  helper:',
    '    tools: [read, bash]',
    '    secrets: all',
    '  unknown_key_agent:',
    '    colour: red',
  ].join('\n'),
  'agents/lead.md': '---\ndescription: Leads\nmodel: fast\nmode: primary\ntools:\n  exclude: [bash]\npermission:\n  bash:\n    "git *": ask\n    "*": deny\n  edit: allow\n---\nLead the work.',
  'agents/helper.md': '---\nmode: subagent\nsteps: 4\ntools: [read]\n---\nHelp.',
  'agents/unknown_key_agent.md': 'Plain.',
  'skills/notes/SKILL.md': '---\ndescription: Take notes\n---\nNotes.',
  'skills/unused/SKILL.md': '---\ndescription: Unused\n---\nUnused.',
  'AGENTS.md': 'Rules.\n',
};

describe('describeAgentProject', () => {
  it('gives each agent, its model, mode, grants as written and what each resolves to, as plain JSON', async () => {
    const project = await loadAgentProject(createMemoryVfs(files));
    const description = describeAgentProject(project);
    expect(JSON.parse(JSON.stringify(description))).toEqual(description);
    expect(description.defaultAgent).toBe('lead');
    expect(description.manifest).toBe('agent-project.yaml');
    const [lead, helper, plain] = description.agents;
    expect(lead).toEqual({
      name: 'lead',
      file: 'agents/lead.md',
      description: 'Leads',
      model: 'fast',
      mode: 'primary',
      temperature: null,
      topP: null,
      steps: null,
      isDefault: true,
      promptLength: 'Lead the work.'.length,
      toolsSetting: { exclude: ['bash'] },
      grants: {
        tools: { granted: 'all', resolved: { all: true, except: ['bash'] } },
        skills: { granted: ['notes'], resolved: ['notes'] },
        secrets: { granted: ['GITHUB_TOKEN'], resolved: ['GITHUB_TOKEN'] },
        subagents: { granted: 'all', resolved: ['helper', 'unknown_key_agent'] },
      },
      permission: [
        { tool: 'bash', action: null, patterns: [{ pattern: 'git *', action: 'ask' }, { pattern: '*', action: 'deny' }] },
        { tool: 'edit', action: 'allow', patterns: [] },
      ],
    });
    expect(helper!.grants).toEqual({
      tools: { granted: ['read', 'bash'], resolved: ['read'] },
      skills: { granted: [], resolved: [] },
      secrets: { granted: 'all', resolved: { all: true, except: [] } },
      subagents: { granted: [], resolved: [] },
    });
    expect(plain).toMatchObject({ mode: 'all', model: null, toolsSetting: 'all', isDefault: false });
    expect(description.skills).toEqual([
      { name: 'notes', description: 'Take notes', directory: 'skills/notes', grantedTo: ['lead'] },
      { name: 'unused', description: 'Unused', directory: 'skills/unused', grantedTo: [] },
    ]);
    expect(description.instructions).toMatchObject({ source: 'AGENTS.md', path: 'AGENTS.md', bytes: 7 });
    expect(description.warnings).toMatchObject([{ file: 'agent-project.yaml', key: 'agents.unknown_key_agent.colour', line: 12 }]);
    expect(JSON.stringify(description)).not.toContain('Lead the work.');
  });

  it("resolves all-grants of tools and secrets against the product's names, never listing a value", async () => {
    const project = await loadAgentProject(createMemoryVfs(files));
    const description = describeAgentProject(project, { tools: ['read', 'bash', 'web', 'read'], secrets: ['GITHUB_TOKEN', 'NPM_TOKEN'] });
    expect(description.agents[0]!.grants.tools.resolved).toEqual(['read', 'web']);
    expect(description.agents[1]!.grants.secrets.resolved).toEqual(['GITHUB_TOKEN', 'NPM_TOKEN']);
    expect(describeAgentProject(project, { tools: 'bash' as unknown as string[] }).agents[0]!.grants.tools.resolved).toEqual({ all: true, except: ['bash'] });
  });

  it('returns a fresh copy each call', async () => {
    const project = await loadAgentProject(createMemoryVfs(files));
    const first = describeAgentProject(project);
    (first.agents[0]!.grants.skills.resolved as string[]).push('tampered');
    expect(describeAgentProject(project).agents[0]!.grants.skills.resolved).toEqual(['notes']);
    expect(project.agents.get('lead')!.effective.skills).toEqual(['notes']);
  });
});
