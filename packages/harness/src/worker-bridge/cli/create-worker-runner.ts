import { createBashCliRunner } from '../bash-cli-runner.js';
import type { CliRunner } from '../cli-runner.js';
import { createClaudeCliRunner, createCodexCliRunner, createGeminiCliRunner, createOpenCodeCliRunner } from '../cli-runners.js';
import type { WorkerArgs } from './worker-args.js';

/**
 * The runner the worker's flags ask for, working in `args.cwd`.
 * @throws HarnessConfigError when an option is invalid.
 */
export function createWorkerRunner(args: WorkerArgs): CliRunner {
  const common = { cwd: args.cwd, ...(args.command === undefined ? {} : { command: args.command }) };
  const withModel = { ...common, ...(args.model === undefined ? {} : { model: args.model }) };
  switch (args.cli) {
    case 'claude':
      return createClaudeCliRunner(withModel);
    case 'codex':
      return createCodexCliRunner(withModel);
    case 'opencode':
      return createOpenCodeCliRunner(withModel);
    case 'gemini':
      return createGeminiCliRunner(withModel);
    case 'bash':
      return createBashCliRunner({ ...common, ...(args.script === undefined ? {} : { script: args.script }) });
  }
}
