// A long-lived process for the spawn-engine and pool tests: `node engine-process.mjs <mode>`.
// It reads stdin lines and answers on stdout. Modes:
//   echo      — writes back every line as `echo:<line>`; `stderr:<text>` writes <text> to stderr;
//               `crash` exits 3; `long:<n>` writes one line of n bytes. Exits 0 when stdin closes.
//   stubborn  — like echo, but ignores SIGTERM and stdin closing, and forks a grandchild that does
//               the same; writes both pids to $PID_FILE (see ../../local/__fixtures__/misbehave.mjs).
//   tool-child — like stubborn, but the engine itself dies on SIGTERM; only the grandchild ignores it.
// Prints "ready" once it is listening.
import { spawn } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';

const [mode = 'echo', role = 'parent'] = process.argv.slice(2);

function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

if (mode === 'stubborn' || mode === 'tool-child') {
  // tool-child: the engine itself dies on SIGTERM; only its child (a "tool" holding none of the
  // engine's pipes) ignores it.
  if (mode === 'stubborn' || role === 'grandchild') process.on('SIGTERM', () => undefined);
  globalThis.setInterval(() => undefined, 60_000);
  if (role === 'grandchild') {
    process.stdout.write('ready\n');
  } else {
    const grandchild = spawn(process.execPath, [fileURLToPath(import.meta.url), 'stubborn', 'grandchild'], { stdio: ['ignore', 'pipe', 'ignore'] });
    grandchild.stdout.once('data', () => {
      const lines = [process.pid, grandchild.pid].map((pid) => `${pid} ${startTime(pid)}`.trim());
      writeFileSync(`${process.env.PID_FILE}.tmp`, `${lines.join('\n')}\n`);
      renameSync(`${process.env.PID_FILE}.tmp`, process.env.PID_FILE);
      process.stdout.write('ready\n');
    });
  }
}

if (role === 'parent') {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    if (line === 'crash') process.exit(3);
    if (line.startsWith('stderr:')) process.stderr.write(line.slice('stderr:'.length));
    else if (line.startsWith('long:')) process.stdout.write(`${'x'.repeat(Number(line.slice(5)))}\n`);
    else process.stdout.write(`echo:${line}\n`);
  });
  if (mode === 'echo') {
    lines.on('close', () => process.exit(0));
    process.stdout.write('ready\n');
  }
}
