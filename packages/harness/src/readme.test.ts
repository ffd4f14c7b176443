import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanupTempDirs, tempDir } from './local/__fixtures__/test-helpers.js';
import { binPath, cliEnv, hasScript, runOnTerminal } from './cli/__fixtures__/cli-process.js';

const root = new URL('../../../', import.meta.url);
const path = (file: string) => fileURLToPath(new URL(file, root));
const read = (file: string) => readFileSync(path(file), 'utf8');

/** Each README's TypeScript snippets, and the example files they are, verbatim and in order. */
const SNIPPETS: ReadonlyMap<string, readonly string[]> = new Map([
  ['README.md', ['examples/quickstart/readme-snippet.ts', 'examples/quickstart/readme-pause-resume.ts']],
  ['packages/harness/README.md', ['examples/agent-relay/readme-snippet.ts', 'examples/byoh-worker/readme-snippet.ts']],
]);

/** The bodies of a Markdown file's fenced blocks of `language`. */
function fenced(markdown: string, language: string): string[] {
  return [...markdown.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((match) => match[1]!);
}

describe('README snippets', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each([...SNIPPETS])('every TypeScript snippet of %s is a complete example file, verbatim', (readme, files) => {
    expect(fenced(read(readme), 'ts')).toEqual(files.map(read));
  });

  it('every snippet file type-checks as a program of its own (the examples tsconfig: strict, ESM)', () => {
    expect(existsSync(path('packages/harness/dist/index.d.ts')), 'build the packages first (npm test does)').toBe(true);
    const config = ts.getParsedCommandLineOfConfigFile(path('examples/tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
    const files = [...SNIPPETS.values()].flat().map(path);
    const program = ts.createProgram(files, config.options);
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((diagnostic) => diagnostic.file === undefined || files.includes(diagnostic.file.fileName))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    expect(problems).toEqual([]);
  }, 120_000);

  it('the quick start runs and completes', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    await import(/* @vite-ignore */ path('examples/quickstart/readme-snippet.ts'));
    expect(log).toHaveBeenCalledWith('completed', 'Oslo: sunny, 21°C.');
  });

  it('pause and resume runs: the turn pauses for approval, and the continuation resumes it to the end', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const cwd = process.cwd();
    process.chdir(tempDir('readme-pause-'));
    try {
      await import(/* @vite-ignore */ path('examples/quickstart/readme-pause-resume.ts'));
    } finally {
      process.chdir(cwd);
      cleanupTempDirs();
    }
    expect(log).toHaveBeenCalledWith('awaiting_approval', 'completed', 'Done: deleted old.log.');
  });
});

/** The README's terminal sessions: each `$ ` command with the lines it printed. */
function consoleSessions(markdown: string): { command: string; output: string[] }[] {
  const commands: { command: string; output: string[] }[] = [];
  for (const block of fenced(markdown, 'console')) {
    for (const line of block.trimEnd().split('\n')) {
      if (line.startsWith('$ ')) commands.push({ command: line.slice(2), output: [] });
      else commands.at(-1)!.output.push(line);
    }
  }
  return commands;
}

/** A shell word list from a README command line (`'…'` quoting only, as the README uses). */
function words(command: string): string[] {
  return [...command.matchAll(/'([^']*)'|(\S+)/g)].map((match) => match[1] ?? match[2]!);
}

/** What the terminal showed, without colours, cursor moves and spinner frames, as lines. */
function screenLines(screen: string): string[] {
  return screen
    // eslint-disable-next-line no-control-regex -- escape sequences are what is removed
    .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^\n]*?…/g, '')
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '');
}

describe.skipIf(!hasScript)('README terminal session', () => {
  it('is reproducible with the shipped fake model server, profile and workspace (examples/quickstart/terminal)', async () => {
    expect(existsSync(binPath), 'build the package first (npm test does)').toBe(true);
    const folder = tempDir('readme-terminal-');
    cpSync(path('examples/quickstart/terminal'), folder, { recursive: true });
    const server = spawn(process.execPath, [path('examples/quickstart/terminal/fake-model-server.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        server.stdout.setEncoding('utf8').on('data', (chunk: string) => chunk.includes('listening on') && resolve());
        server.on('exit', (code) => reject(new Error(`the fake model server exited (${String(code)})`)));
      });
      const env = cliEnv(folder);
      const sessions = consoleSessions(read('README.md'));
      expect(sessions.length).toBeGreaterThanOrEqual(3);
      for (const { command, output } of sessions) {
        const args = words(command);
        if (args[0] === 'export') {
          const [name, value] = args[1]!.split('=') as [string, string];
          env[name] = value.startsWith('"$(') ? 'readme-terminal-secret-0123456789' : value;
          continue;
        }
        expect(args.slice(0, 2)).toEqual(['npx', 'agent-assistant']);
        const { screen } = await runOnTerminal(args.slice(2), { cwd: folder, env });
        const shown = screenLines(screen.replaceAll(folder, '/tmp/o1'));
        // Durations differ run to run; everything else is as the README shows it.
        const normalise = (line: string) => line.replace(/ · (this run: )?\d+\.\d s$/, ' · $1N s');
        expect(shown.map(normalise), command).toEqual(output.map(normalise));
      }
    } finally {
      server.kill();
      cleanupTempDirs();
    }
  }, 60_000);
});
