#!/usr/bin/env node
// agent-assistant-worker: runs turns sent over Agent Relay with a local CLI. See --help.
import process from 'node:process';
import { runWorkerMain } from '../cli/worker-main.js';

const onSignal = (listener: (signal: string) => void) => {
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
  };
};

runWorkerMain({
  argv: process.argv.slice(2),
  env: process.env,
  cwd: process.cwd(),
  print: (text) => process.stdout.write(text),
  log: (line) => process.stdout.write(`[agent-assistant-worker] ${line}\n`),
  error: (line) => process.stderr.write(`${line}\n`),
  onSignal,
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`agent-assistant-worker: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
