import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryVfs } from '@agent-assistant/vfs';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarnessConfigError, type HarnessToolResult } from '../../index.js';
import { createSkillToolRegistry, type SkillToolSkill } from './create-skill-tool-registry.js';

const notes: SkillToolSkill = {
  name: 'release-notes',
  description: 'Write release notes from merged pull requests.',
  directory: '/skills/release-notes',
  instructions: 'NOTES-BODY: group changes by package, newest first.',
};
const deploy: SkillToolSkill = {
  name: 'deploy',
  description: 'Deploy   the\nweb app.',
  directory: 'skills/deploy/',
  instructions: 'DEPLOY-BODY: run the checklist.',
};

const vfs = createMemoryVfs({
  '/skills/release-notes/SKILL.md': '---\nname: release-notes\n---\nNOTES-BODY',
  '/skills/release-notes/template.md': '# Release {version}',
  '/skills/release-notes/scripts/collect.sh': 'git log --merges',
  '/skills/release-notes/logo.png': { content: 'iVBORw0KGgo=', encoding: 'base64' },
  '/skills/deploy/SKILL.md': 'DEPLOY-BODY',
  '/skills/deployment-secrets/key.txt': 'SECRET-KEY',
  '/secrets.txt': 'TOP-SECRET',
});

const context = (signal = new AbortController().signal) => ({ assistantId: 'a', turnId: 't', iteration: 1, toolCallIndex: 0, signal });
const call = (input: Record<string, unknown>, id = 'c1') => ({ id, name: 'skill', input });

describe('createSkillToolRegistry', () => {
  const tools = createSkillToolRegistry({ vfs, skills: [notes, deploy] });

  it("lists the skills' names and descriptions in its description, never their bodies", async () => {
    const [definition] = await tools.listAvailable();
    expect(tools.toolNames).toEqual(['skill']);
    expect(definition!.name).toBe('skill');
    expect(definition!.description).toContain('- release-notes: Write release notes from merged pull requests.');
    expect(definition!.description).toContain('- deploy: Deploy the web app.');
    expect(definition!.description).not.toMatch(/BODY/);
    expect(definition!.inputSchema).toMatchObject({ properties: { name: { enum: ['release-notes', 'deploy'] } }, required: ['name'] });
    expect(definition!.requiresApproval).toBeFalsy();
  });

  it("loads a skill's instructions with the paths of its other files", async () => {
    const result = await tools.execute(call({ name: 'release-notes' }), context());
    expect(result.status).toBe('success');
    expect(result.output).toContain('NOTES-BODY: group changes by package');
    expect(result.output).toContain('- template.md');
    expect(result.output).toContain('- scripts/collect.sh');
    expect(result.output).not.toContain('SKILL.md');
    expect(result.structuredOutput).toMatchObject({ skill: 'release-notes', directory: '/skills/release-notes', truncated: false, files: expect.arrayContaining(['template.md', 'scripts/collect.sh', 'logo.png']) as unknown });
  });

  it('reads a file of the skill by a path relative to its folder', async () => {
    expect(await tools.execute(call({ name: 'release-notes', path: 'template.md' }), context())).toMatchObject({ status: 'success', output: '# Release {version}' });
    expect(await tools.execute(call({ name: 'release-notes', path: './scripts//collect.sh' }), context())).toMatchObject({ status: 'success', output: 'git log --merges', structuredOutput: { path: '/skills/release-notes/scripts/collect.sh' } });
  });

  it.each([
    [{ name: 'unknown' }, 'skill_not_found'],
    [{ name: '__proto__' }, 'skill_not_found'],
    [{ name: 'constructor' }, 'skill_not_found'],
    [{ name: 'deploy', path: '../deployment-secrets/key.txt' }, 'path_not_allowed'],
    [{ name: 'deploy', path: '../../secrets.txt' }, 'path_not_allowed'],
    [{ name: 'deploy', path: 'a/../../release-notes/template.md' }, 'path_not_allowed'],
    [{ name: 'deploy', path: 'x\\..\\y' }, 'path_not_allowed'],
    [{ name: 'deploy', path: '.' }, 'path_not_allowed'],
    [{ name: 'deploy', path: 'missing.md' }, 'not_found'],
    [{ name: 'release-notes', path: 'logo.png' }, 'binary_file'],
    [{ name: 'release-notes', path: 'scripts' }, 'is_a_directory'],
    [{ name: 'deploy', offset: -1 }, 'invalid_input'],
    [{ name: 'deploy', path: '' }, 'invalid_input'],
    [{ name: 7 }, 'invalid_input'],
  ])('%j is an error the model sees: %s', async (input, code) => {
    const result = await tools.execute(call(input), context());
    expect(result).toMatchObject({ status: 'error', error: { code, retryable: true } });
    expect(JSON.stringify(result)).not.toMatch(/SECRET|NOTES-BODY/);
  });

  it('bounds every answer by maxBytes, on a character boundary, and continues from offset', async () => {
    const long: SkillToolSkill = { ...deploy, instructions: `${'é'.repeat(30)}END` };
    const small = createSkillToolRegistry({ vfs, skills: [long], maxBytes: 25 });
    const first = await small.execute(call({ name: 'deploy' }), context());
    expect(first.output!.startsWith('é'.repeat(12))).toBe(true);
    expect(first.output).toContain('[Cut: bytes 0–24 of 63');
    expect(first.structuredOutput).toMatchObject({ truncated: true, nextOffset: 24, size: 63 });
    let offset = 24;
    let text = 'é'.repeat(12);
    for (let step = 0; step < 5 && offset !== undefined; step += 1) {
      const next: HarnessToolResult = await small.execute(call({ name: 'deploy', offset }), context());
      const data = next.structuredOutput as { offset: number; bytes: number; nextOffset?: number };
      text += next.output!.split('\n\n[')[0];
      offset = data.nextOffset as number;
    }
    expect(text).toBe(long.instructions);
    const file = await small.execute(call({ name: 'deploy', path: 'SKILL.md' }), context());
    expect(file).toMatchObject({ status: 'success', output: 'DEPLOY-BODY' });
  });

  it('stops waiting for the VFS when the turn is cancelled', async () => {
    const stuck = { ...vfs, read: () => new Promise<never>(() => undefined), list: () => new Promise<never>(() => undefined) };
    const controller = new AbortController();
    const pending = createSkillToolRegistry({ vfs: stuck, skills: [notes] }).execute(call({ name: 'release-notes', path: 'template.md' }), context(controller.signal));
    controller.abort();
    expect(await pending).toMatchObject({ status: 'error', error: { code: 'aborted' } });
  });

  it('refuses bad options with a HarnessConfigError', () => {
    const bad: unknown[] = [
      { vfs, skills: [] },
      { vfs, skills: [notes, notes] },
      { vfs, skills: [{ ...notes, directory: '/' }] },
      { vfs, skills: [{ ...notes, directory: '/skills/../x' }] },
      { vfs, skills: [{ ...notes, name: '../x' }] },
      { vfs, skills: [{ ...notes, description: ' ' }] },
      { vfs, skills: [{ ...notes, instructions: undefined }] },
      { vfs, skills: [notes], maxBytes: 0 },
      { skills: [notes] },
    ];
    for (const options of bad) expect(() => createSkillToolRegistry(options as never)).toThrow(HarnessConfigError);
  });
});

describe('the skill tool over a real folder', () => {
  let base: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(join(tmpdir(), 'skill-tool-')));
    await mkdir(join(base, 'project', 'skills', 'notes'), { recursive: true });
    await writeFile(join(base, 'outside.txt'), 'OUTSIDE-SECRET');
    await writeFile(join(base, 'project', 'skills', 'notes', 'SKILL.md'), 'body');
    await writeFile(join(base, 'project', 'skills', 'notes', 'guide.md'), 'the guide');
    await symlink(join(base, 'outside.txt'), join(base, 'project', 'skills', 'notes', 'leak.md'));
  });
  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('reads files of the folder and refuses a symlink that leaves the project', async () => {
    const tools = createSkillToolRegistry({ vfs: createNodeFsVfs({ root: join(base, 'project') }), skills: [{ name: 'notes', description: 'Notes.', directory: '/skills/notes', instructions: 'body' }] });
    expect(await tools.execute(call({ name: 'notes', path: 'guide.md' }), context())).toMatchObject({ status: 'success', output: 'the guide' });
    const leak = await tools.execute(call({ name: 'notes', path: 'leak.md' }), context());
    expect(leak).toMatchObject({ status: 'error', error: { code: 'path_not_allowed' } });
    expect(JSON.stringify(leak)).not.toContain('OUTSIDE-SECRET');
    const loaded = await tools.execute(call({ name: 'notes' }), context());
    expect(loaded.structuredOutput).toMatchObject({ files: ['guide.md'] });
  });
});
