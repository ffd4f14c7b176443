import fc from 'fast-check';
import { createMemoryVfs } from '@agent-assistant/vfs';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../__fixtures__/property-runs.js';
import { AgentProjectError } from '../agent-project-error.js';
import { loadAgentProject } from './load-agent-project.js';

const yamlish = fc
  .array(
    fc.oneof(
      fc.constantFrom('---', 'agents:', '  lead:', '    tools: [a, b]', '    skills: all', 'mode: primary', 'permission:', '  bash:', '    "*": deny', '&a [*a]', '{', '[', '- ', ': ', '!!binary', '"\\u0000"', '\t', '__proto__: 1'),
      fc.string({ maxLength: 20 }),
    ),
    { maxLength: 12 },
  )
  .map((lines) => lines.join('\n'));

const hostileName = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'), fc.stringMatching(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,20}$/));

describe('loadAgentProject (property)', () => {
  it('either loads or rejects with AgentProjectError, whatever the files say', async () => {
    await fc.assert(
      fc.asyncProperty(yamlish, yamlish, yamlish, async (manifest, agentFile, skillFile) => {
        const vfs = createMemoryVfs({ 'agent-project.yaml': manifest, 'agents/lead.md': agentFile, 'skills/s/SKILL.md': skillFile });
        try {
          const project = await loadAgentProject(vfs);
          expect(Object.isFrozen(project)).toBe(true);
        } catch (error) {
          expect(AgentProjectError.isInstance(error), String(error)).toBe(true);
          for (const problem of (error as AgentProjectError).problems) {
            expect(typeof problem.file).toBe('string');
            expect(problem.line === undefined || (Number.isInteger(problem.line) && problem.line >= 1)).toBe(true);
          }
        }
      }),
      { numRuns: propertyRuns() },
    );
  });

  it('keeps any valid name, __proto__ included, as a plain agent and skill name', async () => {
    await fc.assert(
      fc.asyncProperty(hostileName, async (name) => {
        const quoted = JSON.stringify(name);
        const project = await loadAgentProject(
          createMemoryVfs({
            'agent-project.yaml': `agents:\n  ${quoted}:\n    skills: [${quoted}]\n`,
            [`agents/${name}.md`]: '---\nmode: primary\n---\nPrompt.',
            [`skills/${name}/SKILL.md`]: '---\ndescription: A skill\n---\nBody.',
          }),
        );
        expect([...project.agents.keys()]).toEqual([name]);
        expect(project.agents.get(name)!.effective.skills).toEqual([name]);
        expect(project.skills.get(name)!.directory).toBe(`/skills/${name}`);
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      }),
      { numRuns: propertyRuns() },
    );
  });
});
