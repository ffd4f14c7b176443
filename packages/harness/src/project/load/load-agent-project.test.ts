import { createMemoryVfs, type VfsProvider } from '@agent-assistant/vfs';
import { describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { AgentProjectError } from '../agent-project-error.js';
import type { AgentProject, AgentProjectIssue } from '../agent-project-types.js';
import { DEFAULT_AGENT_PROJECT_LIMITS } from './load-agent-project-options.js';
import { loadAgentProject } from './load-agent-project.js';
import { projectAccessAllows } from './resolve-grants.js';

const BASE: Record<string, string> = {
  'agent-project.yaml': ['default_agent: lead', 'agents:', '  lead:', '    tools: [bash, read]', '  helper:', ''].join('\n'),
  'agents/lead.md': '---\ndescription: Leads\nmode: primary\n---\nYou lead.\n',
  'agents/helper.md': '---\ndescription: Helps\nmode: subagent\n---\nYou help.\n',
};

function load(files: Record<string, string | null>, options?: Parameters<typeof loadAgentProject>[1]): Promise<AgentProject> {
  const merged = Object.fromEntries(Object.entries({ ...BASE, ...files }).filter((entry): entry is [string, string] => entry[1] !== null));
  return loadAgentProject(createMemoryVfs(merged), options);
}

async function problemsOf(files: Record<string, string | null>, options?: Parameters<typeof loadAgentProject>[1]): Promise<readonly AgentProjectIssue[]> {
  const error: unknown = await load(files, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(AgentProjectError.isInstance(error), 'the load should fail with AgentProjectError').toBe(true);
  expect((error as AgentProjectError).code).toBe('HARNESS_ERR_INVALID_PROJECT');
  return (error as AgentProjectError).problems;
}

const manifest = (...lines: string[]) => ({ 'agent-project.yaml': `${lines.join('\n')}\n` });

describe('loadAgentProject: a valid project', () => {
  it('loads agents, their settings, prompts and permission rules', async () => {
    const project = await load({
      'agents/lead.md': [
        '---',
        'description: Leads the work',
        'model: claude-fast',
        'mode: primary',
        'temperature: 0.3',
        'top_p: 0.9',
        'steps: 12',
        'permission:',
        '  edit: ask',
        '  bash:',
        '    "git status*": allow',
        '    "git push*": ask',
        '    "*": deny',
        '---',
        '',
        'You lead.',
        '',
      ].join('\n'),
    });
    const lead = project.agents.get('lead')!;
    expect(lead).toMatchObject({
      name: 'lead',
      path: '/agents/lead.md',
      description: 'Leads the work',
      model: 'claude-fast',
      mode: 'primary',
      temperature: 0.3,
      topP: 0.9,
      steps: 12,
      prompt: 'You lead.',
      tools: { kind: 'all' },
    });
    expect([...lead.permission.tools]).toEqual([
      ['edit', 'ask'],
      [
        'bash',
        [
          { pattern: 'git status*', action: 'allow' },
          { pattern: 'git push*', action: 'ask' },
          { pattern: '*', action: 'deny' },
        ],
      ],
    ]);
    expect(project.defaultAgent).toBe('lead');
    expect([...project.agents.keys()]).toEqual(['lead', 'helper']);
    expect(project.agents.get('helper')).toMatchObject({ mode: 'subagent', model: undefined });
    expect(project.agents.get('helper')!.permission.tools.size).toBe(0);
    expect(project.manifestPath).toBe('/agent-project.yaml');
    expect(project.warnings).toEqual([]);
  });

  it('reads agent-project.json, with the lines of a JSON error', async () => {
    const json = { 'agent-project.yaml': null, 'agent-project.json': JSON.stringify({ agents: { lead: { tools: ['bash'] }, helper: null } }, null, 2) };
    const project = await load(json);
    expect(project.manifestPath).toBe('/agent-project.json');
    expect(project.agents.get('lead')!.effective.tools).toEqual({ kind: 'only', names: ['bash'] });
    const problems = await problemsOf({ 'agent-project.yaml': null, 'agent-project.json': '{\n  "agents": {\n    "lead": {,\n  }\n}\n' });
    expect(problems[0]).toMatchObject({ file: 'agent-project.json', line: 3 });
  });

  it('takes the first agent that can run on its own when default_agent is missing', async () => {
    const project = await load(manifest('agents:', '  helper:', '  lead:'));
    expect(project.defaultAgent).toBe('lead');
  });

  it('is frozen, its maps included', async () => {
    const project = await load({ 'skills/notes/SKILL.md': '---\ndescription: Notes\n---\nTake notes.' });
    expect(Object.isFrozen(project)).toBe(true);
    expect(Object.isFrozen(project.agents.get('lead'))).toBe(true);
    expect(Object.isFrozen(project.agents.get('lead')!.effective.tools)).toBe(true);
    expect(Object.isFrozen(project.warnings)).toBe(true);
    expect('set' in project.agents).toBe(false);
    expect(() => Map.prototype.set.call(project.agents, 'x', undefined)).toThrow(TypeError);
    expect(() => Map.prototype.clear.call(project.skills)).toThrow(TypeError);
    expect(project.agents.size).toBe(2);
    expect(project.skills.get('notes')).toMatchObject({ name: 'notes', description: 'Notes', instructions: 'Take notes.' });
  });
});

describe('loadAgentProject: deny by default and both bindings', () => {
  it('an agent with no grant keys gets no tools, skills, secrets or subagents', async () => {
    const project = await load({ 'skills/notes/SKILL.md': '---\ndescription: Notes\n---\nTake notes.' });
    const helper = project.agents.get('helper')!;
    expect(helper.grants).toEqual({
      tools: { kind: 'list', names: [] },
      skills: { kind: 'list', names: [] },
      secrets: { kind: 'list', names: [] },
      subagents: { kind: 'list', names: [] },
    });
    expect(helper.effective).toEqual({ tools: { kind: 'only', names: [] }, skills: [], secrets: { kind: 'only', names: [] }, subagents: [] });
    expect(projectAccessAllows(helper.effective.tools, 'bash')).toBe(false);
    expect(projectAccessAllows(helper.effective.secrets, 'GITHUB_TOKEN')).toBe(false);
  });

  it('all grants everything; a list grants those names; none and [] grant nothing', async () => {
    const project = await load({
      ...manifest(
        'agents:',
        '  lead:',
        '    tools: all',
        '    skills: all',
        '    secrets: all',
        '    subagents: all',
        '  helper:',
        '    skills: [b]',
        '    secrets: [TOKEN]',
        '    tools: none',
        '    subagents: []',
        '  other:',
      ),
      'agents/other.md': '---\nmode: all\n---\nOther.',
      'skills/a/SKILL.md': '---\ndescription: A\n---\nA.',
      'skills/b/SKILL.md': '---\ndescription: B\n---\nB.',
    });
    const lead = project.agents.get('lead')!.effective;
    expect(lead.tools).toEqual({ kind: 'all', except: [] });
    expect(lead.skills).toEqual(['a', 'b']);
    expect(lead.secrets).toEqual({ kind: 'all', except: [] });
    expect(lead.subagents).toEqual(['helper', 'other']);
    expect(projectAccessAllows(lead.tools, 'anything')).toBe(true);
    const helper = project.agents.get('helper')!.effective;
    expect(helper).toEqual({ tools: { kind: 'only', names: [] }, skills: ['b'], secrets: { kind: 'only', names: ['TOKEN'] }, subagents: [] });
  });

  it('a tool needs both the manifest grant and the agent file', async () => {
    const project = await load({
      ...manifest('agents:', '  lead:', '    tools: [bash, read, write]', '  helper:', '    tools: all', '  narrow:', '    tools: [bash]'),
      'agents/lead.md': '---\nmode: primary\ntools: [read, web]\n---\nLead.',
      'agents/helper.md': '---\nmode: subagent\ntools:\n  exclude: [bash]\n---\nHelp.',
      'agents/narrow.md': '---\ntools: none\n---\nNarrow.',
    });
    expect(project.agents.get('lead')!.effective.tools).toEqual({ kind: 'only', names: ['read'] });
    const helper = project.agents.get('helper')!.effective.tools;
    expect(helper).toEqual({ kind: 'all', except: ['bash'] });
    expect(projectAccessAllows(helper, 'bash')).toBe(false);
    expect(projectAccessAllows(helper, 'read')).toBe(true);
    expect(project.agents.get('narrow')!.effective.tools).toEqual({ kind: 'only', names: [] });
    expect(project.agents.get('lead')!.tools).toEqual({ kind: 'list', names: ['read', 'web'] });
  });

  it('an agent file not named by the manifest is not an agent (a warning says so)', async () => {
    const project = await load({ 'agents/stray.md': '---\nmode: primary\n---\nStray.' });
    expect(project.agents.has('stray')).toBe(false);
    expect(project.warnings).toEqual([{ file: 'agents/stray.md', message: 'No agent in the manifest uses this file; it is not loaded.' }]);
  });

  it('a manifest agent whose file is missing is a problem', async () => {
    const problems = await problemsOf({ 'agents/helper.md': null });
    expect(problems).toEqual([{ file: 'agents/helper.md', message: 'The file of agent "helper" does not exist.' }]);
  });
});

describe('loadAgentProject: grants must name what exists', () => {
  it('reports unknown skills, unknown, primary and self subagents, and a subagent default agent, all at once', async () => {
    const problems = await problemsOf({
      ...manifest('default_agent: helper', 'agents:', '  lead:', '    skills: [missing]', '    subagents: [lead, ghost, boss]', '  helper:', '  boss:'),
      'agents/boss.md': '---\nmode: primary\n---\nBoss.',
    });
    expect(problems.map((problem) => [problem.file, problem.line, problem.key])).toEqual([
      ['agent-project.yaml', 4, 'agents.lead.skills'],
      ['agent-project.yaml', 5, 'agents.lead.subagents'],
      ['agent-project.yaml', 5, 'agents.lead.subagents'],
      ['agent-project.yaml', 5, 'agents.lead.subagents'],
      ['agent-project.yaml', 1, 'default_agent'],
    ]);
    expect(problems.map((problem) => problem.message).join('\n')).toMatch(/no skill skills\/missing\/SKILL\.md[\s\S]*itself[\s\S]*"ghost", which is not an agent[\s\S]*"boss", whose mode is primary[\s\S]*"helper", whose mode is subagent/);
  });

  it('refuses a project whose every agent is a subagent', async () => {
    const problems = await problemsOf({ ...manifest('agents:', '  helper:') });
    expect(problems[0]!.message).toMatch(/Every agent has mode subagent/);
  });
});

describe('loadAgentProject: the manifest file path rules', () => {
  it.each([
    ['/agents/lead.md', /no leading \//],
    ['agents/lead.txt', /end in \.md/],
    ['agents/../lead.md', /\. or \.\. segments/],
    ['./agents/lead.md', /\. or \.\. segments/],
    ['agents//lead.md', /empty segments/],
    ['agents\\lead.md', /backslashes/],
  ])('refuses file: %s', async (file, message) => {
    const problems = await problemsOf(manifest('agents:', '  lead:', `    file: ${JSON.stringify(file)}`, '  helper:'));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'agent-project.yaml', key: 'agents.lead.file', line: 3 });
    expect(problems[0]!.message).toMatch(message);
  });

  it('reads a file named by a relative path in another folder', async () => {
    const project = await load({ ...manifest('agents:', '  lead:', '    file: team/leader.md', '  helper:'), 'team/leader.md': 'Lead from elsewhere.', 'agents/lead.md': null });
    expect(project.agents.get('lead')).toMatchObject({ path: '/team/leader.md', prompt: 'Lead from elsewhere.', mode: 'all' });
  });
});

describe('loadAgentProject: bad values name the file, the key and the line', () => {
  it('lists every problem of every file', async () => {
    const problems = await problemsOf({
      ...manifest('agents:', '  lead:', '    tools: bash', '    secrets: [ok, "bad name"]', '  helper:', '  "bad/name":'),
      'agents/lead.md': [
        '---',
        'mode: boss',
        'temperature: 3',
        'top_p: "0.5"',
        'steps: 0',
        'model: ""',
        'description: [a]',
        'tools: {only: [a]}',
        'permission:',
        '  bash: maybe',
        '  edit: {}',
        '  "bad tool": allow',
        '  read:',
        '    "cat *": sure',
        '---',
        'Lead.',
      ].join('\n'),
    });
    const byFile = problems.map((problem) => `${problem.file}:${problem.line}:${problem.key ?? ''}`);
    expect(byFile).toEqual([
      'agent-project.yaml:3:agents.lead.tools',
      'agent-project.yaml:4:agents.lead.secrets',
      'agent-project.yaml:6:agents.bad/name',
      'agents/lead.md:7:description',
      'agents/lead.md:6:model',
      'agents/lead.md:2:mode',
      'agents/lead.md:3:temperature',
      'agents/lead.md:4:top_p',
      'agents/lead.md:5:steps',
      'agents/lead.md:10:permission.bash',
      'agents/lead.md:11:permission.edit',
      'agents/lead.md:12:permission.bad tool',
      'agents/lead.md:14:permission.read["cat *"]',
      'agents/lead.md:8:tools',
    ]);
  });

  it('reports malformed YAML at the file line, frontmatter offset included', async () => {
    const problems = await problemsOf({ 'agents/lead.md': '---\nmode: primary\ndescription: [unclosed\nsteps: 3\n---\nLead.' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ file: 'agents/lead.md', line: 4 });
    expect(problems[0]!.message).toMatch(/^Malformed YAML frontmatter: /);
    const manifestProblems = await problemsOf({ 'agent-project.yaml': 'agents:\n  lead:\n    tools: [a\n  helper: x: y\n' });
    expect(manifestProblems[0]).toMatchObject({ file: 'agent-project.yaml' });
    expect(manifestProblems[0]!.line).toBeGreaterThanOrEqual(3);
  });

  it('reports duplicate keys and a frontmatter that is never closed', async () => {
    expect(await problemsOf({ 'agents/lead.md': '---\nmode: primary\nmode: all\n---\nLead.' })).toMatchObject([{ file: 'agents/lead.md', line: 3 }]);
    expect(await problemsOf({ 'agents/lead.md': '---\nmode: primary\nLead.' })).toEqual([
      { file: 'agents/lead.md', line: 1, message: 'The frontmatter opened by --- on line 1 is never closed by a --- line.' },
    ]);
  });

  it('refuses a missing manifest, two manifests, and a manifest without agents', async () => {
    expect((await problemsOf({ 'agent-project.yaml': null }))[0]!.message).toMatch(/No agent-project\.yaml/);
    expect((await problemsOf({ 'agent-project.json': '{}' }))[0]!.message).toMatch(/Both agent-project\.yaml and agent-project\.json/);
    expect((await problemsOf({ 'agent-project.yaml': 'default_agent: lead\n' }))[0]).toMatchObject({ key: 'agents', message: expect.stringMatching(/no agents key/) });
    expect((await problemsOf({ 'agent-project.yaml': '- a\n- b\n' }))[0]!.message).toMatch(/must be a mapping/);
  });
});

describe('loadAgentProject: unknown keys are warnings', () => {
  it('warns about unknown keys of the manifest, its agents, agent files and skills, with lines', async () => {
    const project = await load({
      ...manifest('version: 2', 'agents:', '  lead:', '    tools: [bash]', '    color: red', '  helper:'),
      'agents/lead.md': '---\nmode: primary\nhidden: true\n---\nLead.',
      'skills/notes/SKILL.md': '---\ndescription: Notes\nlicense: MIT\nauthor: me\n---\nNotes.',
    });
    expect(project.warnings.map((warning) => [warning.file, warning.line, warning.key])).toEqual([
      ['agent-project.yaml', 1, 'version'],
      ['agent-project.yaml', 5, 'agents.lead.color'],
      ['skills/notes/SKILL.md', 4, 'author'],
      ['agents/lead.md', 3, 'hidden'],
    ]);
    expect(project.warnings[0]!.message).toMatch(/Unknown key "version" in the manifest is ignored/);
  });
});

describe('loadAgentProject: hostile names', () => {
  it('loads __proto__, constructor and toString as plain agent and skill names', async () => {
    const project = await load({
      ...manifest(
        'default_agent: __proto__',
        'agents:',
        '  __proto__:',
        '    skills: [__proto__, constructor]',
        '    subagents: [toString]',
        '  toString:',
        '  helper:',
      ),
      'agents/__proto__.md': '---\nmode: primary\npermission:\n  __proto__: deny\n  bash:\n    __proto__: ask\n---\nProto.',
      'agents/toString.md': '---\nmode: subagent\n---\nToString.',
      'skills/__proto__/SKILL.md': '---\nname: __proto__\ndescription: Proto skill\n---\nProto.',
      'skills/constructor/SKILL.md': '---\ndescription: Constructor skill\n---\nC.',
    });
    expect(project.defaultAgent).toBe('__proto__');
    const proto = project.agents.get('__proto__')!;
    expect(proto.name).toBe('__proto__');
    expect(proto.effective.skills).toEqual(['__proto__', 'constructor']);
    expect(proto.effective.subagents).toEqual(['toString']);
    expect(proto.permission.tools.get('__proto__')).toBe('deny');
    expect(proto.permission.tools.get('bash')).toEqual([{ pattern: '__proto__', action: 'ask' }]);
    expect(project.skills.get('__proto__')).toMatchObject({ name: '__proto__', directory: '/skills/__proto__' });
    expect(project.agents.has('constructor')).toBe(false);
  });

  it('refuses names that are not plain names', async () => {
    const problems = await problemsOf(manifest('agents:', '  lead:', '  helper:', '  ".hidden":', '  "a b":'));
    expect(problems.map((problem) => problem.key)).toEqual(['agents..hidden', 'agents.a b']);
  });
});

describe('loadAgentProject: skills', () => {
  it('records the folder of a skill and reads only SKILL.md', async () => {
    const reads: string[] = [];
    const memory = createMemoryVfs({
      ...BASE,
      'agent-project.yaml': 'agents:\n  lead:\n    skills: [release-notes]\n  helper:\n',
      'skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Write release notes\n---\nRead template.md first.',
      'skills/release-notes/template.md': '# Template',
    });
    const vfs: VfsProvider = { ...memory, read: (path) => (reads.push(path), memory.read(path)) };
    const project = await loadAgentProject(vfs);
    expect(project.skills.get('release-notes')).toEqual({
      name: 'release-notes',
      description: 'Write release notes',
      instructions: 'Read template.md first.',
      directory: '/skills/release-notes',
      path: '/skills/release-notes/SKILL.md',
    });
    expect(reads).not.toContain('/skills/release-notes/template.md');
  });

  it('refuses a skill without a description or whose name is not its folder; warns for a folder without SKILL.md', async () => {
    const problems = await problemsOf({
      'skills/a/SKILL.md': 'No frontmatter.',
      'skills/b/SKILL.md': '---\nname: other\ndescription: B\n---\nB.',
      'skills/c/SKILL.md': '---\nname: c\n---\nC.',
      'skills/d/notes.md': 'not a skill',
    });
    expect(problems.map((problem) => `${problem.file}:${problem.line ?? ''}:${problem.key ?? ''}`)).toEqual([
      'skills/a/SKILL.md:1:',
      'skills/b/SKILL.md:2:name',
      'skills/c/SKILL.md:2:description',
    ]);
    const project = await load({ 'skills/d/notes.md': 'not a skill', 'skills/readme.md': 'x' });
    expect(project.skills.size).toBe(0);
    expect(project.warnings.map((warning) => warning.file)).toEqual(['skills/d', 'skills/readme.md']);
  });
});

describe('loadAgentProject: byte and count limits', () => {
  it('refuses a file over its limit instead of truncating it', async () => {
    const big = `---\nmode: primary\n---\n${'x'.repeat(DEFAULT_AGENT_PROJECT_LIMITS.maxAgentFileBytes)}`;
    const problems = await problemsOf({ 'agents/lead.md': big });
    expect(problems).toEqual([
      { file: 'agents/lead.md', message: `The file of agent "lead" is ${big.length} bytes, more than the limit of 131072 bytes.` },
    ]);
    expect((await problemsOf({ 'AGENTS.md': 'x'.repeat(101) }, { limits: { maxInstructionsBytes: 100 } }))[0]).toMatchObject({ file: 'AGENTS.md' });
    expect((await problemsOf({ 'skills/a/SKILL.md': 'x'.repeat(101) }, { limits: { maxSkillFileBytes: 100 } }))[0]).toMatchObject({ file: 'skills/a/SKILL.md' });
    expect((await problemsOf({}, { limits: { maxManifestBytes: 10 } }))[0]!.message).toMatch(/more than the limit of 10 bytes/);
  });

  it('counts UTF-8 bytes, not characters', async () => {
    expect((await problemsOf({ 'AGENTS.md': 'é'.repeat(60) }, { limits: { maxInstructionsBytes: 100 } }))[0]!.message).toMatch(/120 bytes/);
  });

  it('refuses a file the VFS truncated (a VFS without stat)', async () => {
    const memory = createMemoryVfs(BASE, { maxReadBytes: 20 });
    const { stat: _stat, ...noStat } = memory;
    const error = await loadAgentProject(noStat).catch((thrown: unknown) => thrown);
    expect((error as AgentProjectError).problems.map((problem) => problem.file)).toEqual(['agent-project.yaml']);
  });

  it('refuses more agents or skill folders than the limits', async () => {
    expect((await problemsOf({}, { limits: { maxAgents: 1 } }))[0]!.message).toMatch(/declares 2 agents, more than the limit of 1/);
    const skills = { 'skills/a/SKILL.md': '---\ndescription: A\n---\nA', 'skills/b/SKILL.md': '---\ndescription: B\n---\nB' };
    expect((await problemsOf(skills, { limits: { maxSkills: 1 } }))[0]!.message).toMatch(/more than the limit of 1 entries/);
  });

  it('refuses bad options with HarnessConfigError', async () => {
    const vfs = createMemoryVfs(BASE);
    await expect(loadAgentProject(vfs, { limits: { maxAgents: 0 } })).rejects.toSatisfy(HarnessConfigError.isInstance);
    await expect(loadAgentProject(vfs, { root: '../x' })).rejects.toSatisfy(HarnessConfigError.isInstance);
    const hostile = Object.defineProperty({}, 'limits', {
      get() {
        throw new Error('boom');
      },
    });
    await expect(loadAgentProject(vfs, hostile)).rejects.toSatisfy(HarnessConfigError.isInstance);
    await expect(loadAgentProject({} as VfsProvider)).rejects.toSatisfy(HarnessConfigError.isInstance);
  });
});

describe('loadAgentProject: project instructions', () => {
  it('loads AGENTS.md with its metadata (sha: the first 12 hex of its SHA-256)', async () => {
    const text = '# Rules\n\nUse tabs.\n';
    const project = await load({ 'AGENTS.md': text, 'CLAUDE.md': 'ignored' });
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
    const sha = Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('').slice(0, 12);
    expect(project.instructions).toEqual({ text: '# Rules\n\nUse tabs.', info: { source: 'AGENTS.md', path: '/AGENTS.md', bytes: 19, sha } });
    expect(project.warnings).toEqual([]);
  });

  it('falls back to CLAUDE.md only when AGENTS.md is missing', async () => {
    expect((await load({ 'CLAUDE.md': 'Claude rules.' })).instructions?.info).toMatchObject({ source: 'CLAUDE.md', path: '/CLAUDE.md', bytes: 13 });
    expect((await load({})).instructions).toBeNull();
  });

  it('an empty AGENTS.md adds nothing, warns, and does not fall back to CLAUDE.md', async () => {
    for (const empty of ['', ' \n\t\n']) {
      const project = await load({ 'AGENTS.md': empty, 'CLAUDE.md': 'Claude rules.' });
      expect(project.instructions).toBeNull();
      expect(project.warnings).toEqual([{ file: 'AGENTS.md', message: 'AGENTS.md is empty; no project instructions are loaded.' }]);
    }
  });

  it('an AGENTS.md that is a folder adds nothing, warns, and does not fall back', async () => {
    const project = await load({ 'AGENTS.md/readme.md': 'x', 'CLAUDE.md': 'Claude rules.' });
    expect(project.instructions).toBeNull();
    expect(project.warnings).toEqual([{ file: 'AGENTS.md', message: 'AGENTS.md is a folder, not a file; no project instructions are loaded.' }]);
  });
});

describe('loadAgentProject: a project in a folder of the VFS', () => {
  it('reads below root and reports paths relative to it', async () => {
    const files = Object.fromEntries(Object.entries(BASE).map(([path, text]) => [`/repo/.agents/${path}`, text]));
    const vfs = createMemoryVfs({ ...files, '/repo/.agents/AGENTS.md': 'Rules.', '/repo/.agents/agents/stray.md': 'x' });
    const project = await loadAgentProject(vfs, { root: 'repo/.agents/' });
    expect(project.root).toBe('/repo/.agents');
    expect(project.agents.get('lead')!.path).toBe('/repo/.agents/agents/lead.md');
    expect(project.instructions!.info.path).toBe('/repo/.agents/AGENTS.md');
    expect(project.warnings.map((warning) => warning.file)).toEqual(['agents/stray.md']);
  });
});

describe('loadAgentProject: a hostile VFS', () => {
  it('turns a VFS that throws odd values or returns junk into problems, never a crash', async () => {
    const memory = createMemoryVfs(BASE);
    const vfs: VfsProvider = {
      ...memory,
      stat: undefined,
      async read(path) {
        if (path === '/agents/lead.md') throw Object.defineProperty({}, 'message', { get: () => { throw new Error('nested'); } });
        if (path === '/agents/helper.md') return { path, content: 42 as unknown as string };
        return memory.read(path);
      },
      async list() {
        return [null, { path: 7, type: 'dir' }] as never;
      },
    };
    const error = await loadAgentProject(vfs).catch((thrown: unknown) => thrown);
    expect(AgentProjectError.isInstance(error)).toBe(true);
    expect((error as AgentProjectError).problems.map((problem) => problem.file)).toEqual(['skills/', 'agents/lead.md', 'agents/helper.md']);
  });

  it('reads a file a VFS stats as unknown (a provider that cannot tell types)', async () => {
    const memory = createMemoryVfs({ ...BASE, 'AGENTS.md': 'Rules.' });
    const vfs: VfsProvider = { ...memory, stat: async (path) => ({ path, type: 'unknown' }) };
    const project = await loadAgentProject(vfs);
    expect(project.instructions?.text).toBe('Rules.');
    expect(project.agents.size).toBe(2);
  });
});
