// The loader over a real folder through the sandboxed Node VFS: symlinks that leave the project,
// FIFOs, folders where files should be, oversize files on disk.
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createNodeFsVfs } from '@agent-assistant/vfs/node';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../../local/__fixtures__/test-helpers.js';
import { AgentProjectError } from '../agent-project-error.js';
import { loadAgentProject } from './load-agent-project.js';

let outside: string;
let project: string;

function write(relative: string, text: string): void {
  const path = join(project, relative);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

async function problems(): Promise<AgentProjectError['problems']> {
  const error = await loadAgentProject(createNodeFsVfs({ root: project })).catch((thrown: unknown) => thrown);
  expect(AgentProjectError.isInstance(error)).toBe(true);
  return (error as AgentProjectError).problems;
}

beforeEach(() => {
  const base = tempDir('agent-project-');
  outside = join(base, 'outside');
  project = join(base, 'project');
  mkdirSync(outside);
  mkdirSync(project);
  writeFileSync(join(outside, 'secret.md'), '---\nmode: primary\n---\nThe secret prompt.\n');
  writeFileSync(join(outside, 'AGENTS.md'), 'Outside rules.\n');
  mkdirSync(join(outside, 'skill'));
  writeFileSync(join(outside, 'skill', 'SKILL.md'), '---\ndescription: Outside\n---\nOutside.');
  write('agent-project.yaml', 'agents:\n  lead:\n    skills: all\n');
  write('agents/lead.md', '---\nmode: primary\n---\nLead.\n');
  write('skills/notes/SKILL.md', '---\ndescription: Notes\n---\nTake notes.\n');
  write('skills/notes/template.md', '# Notes template\n');
});

afterAll(cleanupTempDirs);

describe('loadAgentProject over a real folder', () => {
  it('loads the project, symlinks inside it included', async () => {
    symlinkSync(join(project, 'agents', 'lead.md'), join(project, 'agents', 'alias.md'));
    write('AGENTS.md', 'Project rules.\n');
    const loaded = await loadAgentProject(createNodeFsVfs({ root: project }));
    expect(loaded.agents.get('lead')!.effective.skills).toEqual(['notes']);
    expect(loaded.skills.get('notes')!.directory).toBe('/skills/notes');
    expect(loaded.instructions!.info).toMatchObject({ source: 'AGENTS.md', bytes: 15 });
    expect(loaded.warnings.map((warning) => warning.file)).toEqual(['agents/alias.md']);
  });

  it('refuses an agent file that is a symlink leaving the project', async () => {
    write('agent-project.yaml', 'agents:\n  lead:\n    file: agents/evil.md\n');
    symlinkSync(join(outside, 'secret.md'), join(project, 'agents', 'evil.md'));
    expect(await problems()).toEqual([
      { file: 'agents/evil.md', message: 'The file of agent "lead" leads outside the project (a symlink or path that leaves it).' },
    ]);
  });

  it('refuses an agent file below a symlinked folder that leaves the project', async () => {
    write('agent-project.yaml', 'agents:\n  lead:\n    file: linked/secret.md\n');
    symlinkSync(outside, join(project, 'linked'));
    const found = await problems();
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/leads outside the project/);
  });

  it('never lists a skill folder that is a symlink leaving the project', async () => {
    symlinkSync(join(outside, 'skill'), join(project, 'skills', 'outside'));
    write('agent-project.yaml', 'agents:\n  lead:\n    skills: [outside]\n');
    expect((await problems()).map((problem) => problem.message)).toEqual([
      'agents.lead.skills names "outside", but there is no skill skills/outside/SKILL.md.',
    ]);
  });

  it('refuses a SKILL.md that is a symlink leaving the project', async () => {
    mkdirSync(join(project, 'skills', 'evil'));
    symlinkSync(join(outside, 'skill', 'SKILL.md'), join(project, 'skills', 'evil', 'SKILL.md'));
    expect(await problems()).toEqual([{ file: 'skills/evil/SKILL.md', message: 'SKILL.md leads outside the project (a symlink or path that leaves it).' }]);
  });

  it('an AGENTS.md symlink leaving the project adds nothing, warns, and does not fall back to CLAUDE.md', async () => {
    symlinkSync(join(outside, 'AGENTS.md'), join(project, 'AGENTS.md'));
    write('CLAUDE.md', 'Claude rules.\n');
    const loaded = await loadAgentProject(createNodeFsVfs({ root: project }));
    expect(loaded.instructions).toBeNull();
    expect(loaded.warnings).toEqual([
      { file: 'AGENTS.md', message: 'AGENTS.md leads outside the project (a symlink or path that leaves it); no project instructions are loaded.' },
    ]);
  });

  it('an AGENTS.md that is a FIFO adds nothing and warns, without blocking on it', async () => {
    execFileSync('mkfifo', [join(project, 'AGENTS.md')]);
    write('CLAUDE.md', 'Claude rules.\n');
    const loaded = await loadAgentProject(createNodeFsVfs({ root: project }));
    expect(loaded.instructions).toBeNull();
    expect(loaded.warnings).toEqual([{ file: 'AGENTS.md', message: 'AGENTS.md is not a regular file; no project instructions are loaded.' }]);
  });

  it('a CLAUDE.md symlink leaving the project (no AGENTS.md) adds nothing and warns', async () => {
    symlinkSync(join(outside, 'AGENTS.md'), join(project, 'CLAUDE.md'));
    const loaded = await loadAgentProject(createNodeFsVfs({ root: project }));
    expect(loaded.instructions).toBeNull();
    expect(loaded.warnings.map((warning) => warning.file)).toEqual(['CLAUDE.md']);
  });

  it('refuses an oversize file on disk by its size, before reading it', async () => {
    write('agents/lead.md', `---\nmode: primary\n---\n${'x'.repeat(200_000)}`);
    expect(await problems()).toEqual([
      { file: 'agents/lead.md', message: 'The file of agent "lead" is 200022 bytes, more than the limit of 131072 bytes.' },
    ]);
  });

  it('refuses binary agent files and a manifest that is a folder', async () => {
    writeFileSync(join(project, 'agents', 'lead.md'), Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe]));
    expect((await problems())[0]!.message).toBe('The file of agent "lead" is not UTF-8 text.');
    write('agents/lead.md', 'Lead.');
    execFileSync('rm', [join(project, 'agent-project.yaml')]);
    mkdirSync(join(project, 'agent-project.yaml'));
    expect((await problems())[0]).toEqual({ file: 'agent-project.yaml', message: 'The manifest is a folder, not a file.' });
  });
});
