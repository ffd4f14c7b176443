// `agent-assistant project check DIR` as a real process of the built bin, over real folders.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, tempDir } from '../local/__fixtures__/test-helpers.js';

const bin = fileURLToPath(new URL('../../dist/agent-assistant.js', import.meta.url));
const example = fileURLToPath(new URL('../../../../examples/agent-project/project', import.meta.url));

function runBin(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function folder(files: Record<string, string>): string {
  const root = tempDir('project-check-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

beforeAll(() => {
  expect(existsSync(bin), 'build the package first (npm test does)').toBe(true);
});
afterAll(cleanupTempDirs);

describe('agent-assistant project check', () => {
  it('exits 0 for the example project and summarises it', async () => {
    const run = await runBin(['project', 'check', example], process.cwd());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ok: 2 agents: assistant\* \(primary\), researcher \(subagent\); 1 skill; AGENTS\.md \(\d+ bytes, sha [0-9a-f]{12}\)\n$/);
  });

  it('exits 1 listing every problem as file:line, then the warnings; --json gives the same as data', async () => {
    const root = folder({
      'agent-project.yaml': 'agents:\n  lead:\n    skills: [missing]\n    colour: red\n',
      'agents/lead.md': '---\nmode: primary\ntemperature: 5\n---\nLead.\n',
    });
    const run = await runBin(['project', 'check', '.'], root);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(
      [
        'agents/lead.md:3: temperature must be a number from 0 to 2; got 5.',
        'agent-project.yaml:3: agents.lead.skills names "missing", but there is no skill skills/missing/SKILL.md.',
        'warning: agent-project.yaml:4: Unknown key "colour" in agent "lead" is ignored (known keys: file, tools, skills, secrets, subagents).',
        '2 problems, 1 warning: the project does not load.',
        '',
      ].join('\n'),
    );
    const json = await runBin(['project', 'check', root, '--json'], process.cwd());
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, problems: [{ file: 'agents/lead.md', key: 'temperature', line: 3 }, { line: 3 }], warnings: [{ line: 4 }] });
  });

  it('prints --json of a valid project as its description', async () => {
    const run = await runBin(['project', 'check', example, '--json'], process.cwd());
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as { ok: boolean; project: { defaultAgent: string; agents: Array<{ name: string }> } };
    expect(parsed.ok).toBe(true);
    expect(parsed.project.agents.map((agent) => agent.name)).toEqual(['assistant', 'researcher']);
  });

  it('escapes control characters from the project in its output', async () => {
    const root = folder({ 'agent-project.yaml': 'agents:\n  lead:\n' });
    mkdirSync(join(root, 'skills', 'evil\u001b[2J'), { recursive: true });
    const run = await runBin(['project', 'check', root], process.cwd());
    expect(run.code).toBe(1);
    expect(run.stdout).not.toContain('\u001b');
    expect(run.stdout).toContain('skills/evil\\u001b[2J');
  });

  it('reports a symlink leaving the project as a problem, not its content', async () => {
    const outside = folder({ 'secret.md': 'TOP SECRET PROMPT' });
    const root = folder({ 'agent-project.yaml': 'agents:\n  lead:\n' });
    mkdirSync(join(root, 'agents'));
    symlinkSync(join(outside, 'secret.md'), join(root, 'agents', 'lead.md'));
    const run = await runBin(['project', 'check', root], process.cwd());
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('agents/lead.md: The file of agent "lead" leads outside the project');
    expect(run.stdout).not.toContain('TOP SECRET');
  });

  it('exits 2 for usage errors: no DIR, a missing DIR, an unknown flag or subcommand', async () => {
    const cwd = tempDir('project-check-cwd-');
    for (const args of [['project', 'check'], ['project', 'check', 'nope'], ['project', 'check', '.', '--strict'], ['project', 'lint', '.'], ['project']]) {
      const run = await runBin(args, cwd);
      expect(run.code, args.join(' ')).toBe(2);
    }
    const help = await runBin(['project', 'check', '--help'], cwd);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: agent-assistant project check DIR [--json]');
  });
});
