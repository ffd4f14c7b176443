// A program that misbehaves on request, for the LocalCommand tests: `node misbehave.mjs <mode>`.
// Modes that stay alive write their pid(s), one per line, to $PID_FILE (when set) and then print
// "ready" on stdout, so a test can wait for that line instead of sleeping. Each line is
// `<pid> <start time>` (the start time from /proc/<pid>/stat where there is one), so a test can
// tell the process from a later one that reuses its pid.
import { spawn } from 'node:child_process';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const [mode = 'echo', ...rest] = process.argv.slice(2);
const self = fileURLToPath(import.meta.url);

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot), or '' without procfs. */
function startTime(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function writePids(pids) {
  if (!process.env.PID_FILE) return;
  const lines = pids.map((pid) => `${pid} ${startTime(pid)}`.trim());
  writeFileSync(`${process.env.PID_FILE}.tmp`, `${lines.join('\n')}\n`);
  renameSync(`${process.env.PID_FILE}.tmp`, process.env.PID_FILE);
}

function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on('data', (chunk) => chunks.push(chunk));
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const forever = () => globalThis.setInterval(() => undefined, 60_000);
const ignoreTerm = () => process.on('SIGTERM', () => undefined);

switch (mode) {
  case 'echo': {
    // Everything the process was given, as one JSON object.
    const stdin = await readStdin();
    process.stdout.write(JSON.stringify({ text: 'echo', argv: rest, stdin, env: process.env, cwd: process.cwd() }));
    break;
  }
  case 'print':
    process.stdout.write(rest.join(' '));
    break;
  case 'crash':
    throw new Error('boom: the fixture crashed');
  case 'signal':
    process.kill(process.pid, 'SIGKILL');
    break;
  case 'json-error':
    process.stdout.write(JSON.stringify({ error: 'the fixture failed on purpose' }));
    process.stderr.write('fatal: the fixture failed on purpose\n');
    process.exitCode = 2;
    break;
  case 'hang':
    writePids([process.pid]);
    process.stdout.write('ready\n');
    forever();
    break;
  case 'ignore-term':
    ignoreTerm();
    writePids([process.pid]);
    process.stdout.write('ready\n');
    forever();
    break;
  case 'grandchild': {
    // Parent and grandchild both ignore SIGTERM; the grandchild shares our stdout pipe.
    ignoreTerm();
    const child = spawn(process.execPath, [self, 'grandchild-worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', () => {
      writePids([process.pid, child.pid]);
      process.stdout.write('ready\n');
    });
    forever();
    break;
  }
  case 'tool-child': {
    // Dies on SIGTERM, but its child (a "tool") ignores SIGTERM and holds none of our pipes, so
    // the pipes close while the tool lives on.
    const child = spawn(process.execPath, [self, 'grandchild-worker'], { stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    child.on('message', () => {
      writePids([process.pid, child.pid]);
      process.stdout.write('ready\n');
    });
    forever();
    break;
  }
  case 'grandchild-worker':
    ignoreTerm();
    process.send?.('up');
    forever();
    break;
  case 'daemon': {
    // Answers and exits at once, leaving a SIGTERM-ignoring grandchild that holds stdout open.
    const child = spawn(process.execPath, [self, 'grandchild-worker'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', () => {
      writePids([process.pid, child.pid]);
      child.disconnect();
      child.unref();
      process.stdout.write(JSON.stringify({ text: 'answered before exiting' }));
      process.exit(0);
    });
    break;
  }
  case 'flood': {
    // 100 MB on the chosen stream, honouring back-pressure, then exit 0.
    const stream = rest[0] === 'stderr' ? process.stderr : process.stdout;
    if (rest.includes('ignore-term')) ignoreTerm();
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let left = (100 * 1024 * 1024) / chunk.length;
    const pump = () => {
      while (left > 0) {
        left -= 1;
        if (!stream.write(chunk)) return void stream.once('drain', pump);
      }
    };
    pump();
    break;
  }
  case 'stdin-forever': {
    // Reads stdin until EOF; with stdin closed by the adapter this ends at once.
    const stdin = await readStdin();
    process.stdout.write(JSON.stringify({ text: `read ${Buffer.byteLength(stdin)} bytes` }));
    break;
  }
  case 'not-json':
    process.stdout.write('this is not the JSON you are looking for\n'.repeat(40));
    break;
  case 'exit':
    process.stderr.write(`exiting with ${rest[0]}\n`);
    process.exitCode = Number(rest[0]);
    break;
  default:
    process.stderr.write(`unknown mode ${mode}\n`);
    process.exitCode = 64;
}
