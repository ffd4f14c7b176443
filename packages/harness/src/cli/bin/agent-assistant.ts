#!/usr/bin/env node
// agent-assistant: run a turn, resume a paused one, probe local backends, inspect profiles. See --help.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { runCliMain } from '../cli-main.js';

function packageVersion(): string {
  try {
    const bin = realpathSync(process.argv[1] ?? '');
    return (JSON.parse(readFileSync(join(dirname(bin), '..', 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

function readStdin(maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        process.stdin.destroy();
        reject(new Error(`The prompt on stdin is longer than ${maxBytes} bytes.`));
        return;
      }
      chunks.push(chunk);
    });
    process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    process.stdin.on('error', reject);
  });
}

runCliMain({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  version: packageVersion(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
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
    process.stderr.write(`agent-assistant: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
