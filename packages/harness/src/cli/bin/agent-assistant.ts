#!/usr/bin/env node
// agent-assistant: run a turn, resume a paused one, probe local backends, inspect profiles. See --help.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { runCliMain } from '../cli-main.js';
import { terminalText } from '../internal/terminal-text.js';

function packageVersion(): string {
  try {
    const bin = realpathSync(process.argv[1] ?? '');
    return (JSON.parse(readFileSync(join(dirname(bin), '..', 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Standard input to its end, or its first `maxBytes + 1` bytes: then reading stops. */
function readStdin(maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = () => {
      process.stdin.off('data', onData);
      process.stdin.destroy();
      resolve(Buffer.concat(chunks).subarray(0, maxBytes + 1));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size > maxBytes) finish();
    };
    process.stdin.on('data', onData);
    process.stdin.once('end', finish);
    process.stdin.once('error', reject);
  });
}

runCliMain({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  version: packageVersion(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdoutIsTty: process.stdout.isTTY === true,
  stderrIsTty: process.stderr.isTTY === true,
  stdinIsTty: process.stdin.isTTY === true,
  readStdin,
  onInterrupt(listener) {
    process.on('SIGINT', listener);
    process.on('SIGTERM', listener);
    return () => {
      process.off('SIGINT', listener);
      process.off('SIGTERM', listener);
    };
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`agent-assistant: ${terminalText(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = 1;
  },
);
