// Prompt templates of a project (`commands/<name>.md`): loaded and checked with the project,
// expanded into a turn's message with `$ARGUMENTS`.
import { createMemoryVfs } from '@agent-assistant/vfs';
import { describe, expect, it } from 'vitest';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { AgentProjectError } from '../agent-project-error.js';
import { describeAgentProject } from '../describe/describe-agent-project.js';
import { loadAgentProject } from '../load/load-agent-project.js';
import { expandAgentCommand } from './expand-agent-command.js';

const BASE: Record<string, string> = {
  'agent-project.yaml': 'default_agent: lead\nagents:\n  lead:\n  writer:\n  helper:\n',
  'agents/lead.md': '---\nmode: primary\n---\nLEAD\n',
  'agents/writer.md': '---\nmode: all\n---\nWRITER\n',
  'agents/helper.md': '---\nmode: subagent\n---\nHELPER\n',
};

const load = (files: Record<string, string>, limits?: Record<string, number>) => loadAgentProject(createMemoryVfs({ ...BASE, ...files }), limits === undefined ? undefined : { limits });

async function problems(files: Record<string, string>, limits?: Record<string, number>) {
  const error: unknown = await load(files, limits).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(AgentProjectError.isInstance(error), 'the load should fail').toBe(true);
  return (error as AgentProjectError).problems;
}

describe('commands/<name>.md', () => {
  it('loads each template with its description and agent, in name order, and describes them', async () => {
    const project = await load({
      'commands/release.md': '---\ndescription: Draft release notes.\nagent: writer\nsubtask: true\n---\n\nDraft the notes for $ARGUMENTS.\n',
      'commands/__proto__.md': 'Plain $ARGUMENTS and $ARGUMENTS again.\n',
      'commands/notes.txt': 'not a command',
    });
    expect([...project.commands.keys()]).toEqual(['__proto__', 'release']);
    expect(project.commands.get('release')).toEqual({ name: 'release', description: 'Draft release notes.', agent: 'writer', template: 'Draft the notes for $ARGUMENTS.', path: '/commands/release.md' });
    expect(project.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'commands/release.md', key: 'subtask', line: 4 }),
        expect.objectContaining({ file: 'commands/notes.txt', message: 'Not a command file (commands/<name>.md); ignored.' }),
      ]),
    );
    expect(describeAgentProject(project).commands).toEqual([
      { name: '__proto__', description: null, agent: 'lead', file: 'commands/__proto__.md' },
      { name: 'release', description: 'Draft release notes.', agent: 'writer', file: 'commands/release.md' },
    ]);
  });

  it('expands $ARGUMENTS verbatim, names the agent, and appends arguments to a template without the placeholder', async () => {
    const project = await load({
      'commands/release.md': '---\nagent: writer\n---\nNotes for $ARGUMENTS, then check $ARGUMENTS.\n',
      'commands/plain.md': 'Summarise the changes.\n',
    });
    expect(expandAgentCommand(project, 'release', 'v1.2.0')).toEqual({ agent: 'writer', text: 'Notes for v1.2.0, then check v1.2.0.' });
    expect(expandAgentCommand(project, 'release', "$& $' $1 $$")).toEqual({ agent: 'writer', text: "Notes for $& $' $1 $$, then check $& $' $1 $$." });
    expect(expandAgentCommand(project, 'plain')).toEqual({ agent: 'lead', text: 'Summarise the changes.' });
    expect(expandAgentCommand(project, 'plain', 'only the docs')).toEqual({ agent: 'lead', text: 'Summarise the changes.\n\nonly the docs' });
    expect(() => expandAgentCommand(project, 'missing')).toThrow(expect.objectContaining({ field: 'name', message: expect.stringContaining('its commands: plain, release') as string }) as Error);
    expect(() => expandAgentCommand(project, '__proto__')).toThrow(HarnessConfigError);
    expect(() => expandAgentCommand(project, 'plain', 42 as never)).toThrow(expect.objectContaining({ field: 'args' }) as Error);
  });

  it('reports every problem with its file and line: an agent that is not one or only a subagent, an empty body, bad names and YAML, a file over its limit', async () => {
    const found = await problems(
      {
        'commands/ghost.md': '---\ndescription: x\nagent: ghost\n---\nGo.\n',
        'commands/sub.md': '---\nagent: helper\n---\nGo.\n',
        'commands/empty.md': '---\ndescription: nothing\n---\n',
        'commands/-bad.md': 'Go.\n',
        'commands/yaml.md': '---\ndescription: [unclosed\n---\nGo.\n',
        'commands/big.md': `${'x'.repeat(300)}\n`,
      },
      { maxCommandFileBytes: 200 },
    );
    expect(found).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ file: 'commands/ghost.md', key: 'agent', line: 3, message: expect.stringContaining('not an agent of the manifest') as string }),
        expect.objectContaining({ file: 'commands/sub.md', key: 'agent', line: 2, message: expect.stringContaining('mode is subagent') as string }),
        expect.objectContaining({ file: 'commands/empty.md', message: expect.stringContaining('no body') as string }),
        expect.objectContaining({ file: 'commands/-bad.md', message: expect.stringContaining('not valid') as string }),
        expect.objectContaining({ file: 'commands/yaml.md', line: 2, message: expect.stringContaining('Malformed YAML') as string }),
        expect.objectContaining({ file: 'commands/big.md', message: expect.stringContaining('200') as string }),
      ]),
    );
    expect(found).toHaveLength(6);
  });

  it('refuses a commands folder over maxCommands', async () => {
    expect(await problems({ 'commands/a.md': 'A', 'commands/b.md': 'B', 'commands/c.md': 'C' }, { maxCommands: 2 })).toEqual([
      expect.objectContaining({ file: 'commands', message: 'The commands folder holds more than the limit of 2 entries.' }),
    ]);
  });
});
