import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { LOCAL_BACKEND_IDS } from '../../local/local-backend-ids.js';
import { buildHarness } from '../internal/build-harness.js';
import { CONTINUATION_SECRET_ENV, readContinuationSecret } from '../internal/continuation-secret.js';
import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { driveTurn } from '../internal/drive-turn.js';
import {
  flagHelp,
  flagSwitch,
  flagValue,
  integerFlag,
  numberFlag,
  parseFlags,
  type FlagSpecs,
  type ParsedFlags,
} from '../internal/parse-flags.js';
import { readPrompt } from '../internal/read-prompt.js';
import type { RunSettings } from '../internal/run-settings.js';
import { jsonTurnView, textTurnView } from '../internal/turn-view.js';

/** The flags of `agent-assistant run`. */
export const RUN_FLAGS: FlagSpecs = {
  project: {
    value: 'DIR',
    help: 'an agent project folder: its agent gives the prompt, model, tools, skills and rules (see docs/agent-projects.md)',
  },
  agent: { value: 'NAME', help: "the project's agent (default: its default agent)" },
  profiles: {
    value: 'FILE',
    help: 'provider profiles file (JSON; see docs/provider-profiles.md)',
  },
  profile: { value: 'ID', help: 'profile id or alias in --profiles (with --project: the model of agents that name none)' },
  backend: {
    value: 'ID',
    help: `local CLI backend instead of a profile: ${LOCAL_BACKEND_IDS.join(', ')}`,
  },
  'backend-command': {
    value: 'PATH',
    help: 'the backend CLI executable (default: its usual name on PATH)',
  },
  model: {
    value: 'NAME',
    help: 'model passed to the backend CLI (backends only; a profile names its model)',
  },
  prompt: {
    value: 'TEXT',
    help: 'the user message (or --prompt-file, or stdin)',
  },
  'prompt-file': { value: 'FILE', help: 'read the user message from FILE' },
  system: {
    value: 'TEXT',
    help: 'system prompt (default: a short helpful-assistant prompt)',
  },
  workspace: {
    value: 'DIR',
    help: 'profiles: read-only workspace tools over DIR; backends: the CLI works in DIR',
  },
  'require-approval': {
    value: 'TOOL',
    help: 'pause for approval before TOOL runs (repeatable; profiles with --workspace)',
    repeat: true,
  },
  'question-tool': {
    help: 'profiles: let the model ask you a question (the `question` tool); the run pauses (exit 3) until `resume --answer`',
  },
  'max-iterations': { value: 'N', help: 'model steps per run (default 6)' },
  'max-tool-calls': { value: 'N', help: 'tool calls per run (default 8)' },
  'timeout-ms': {
    value: 'MS',
    help: 'wall time of the run in milliseconds (default 30000)',
  },
  budget: {
    value: 'COST',
    help: 'cost units the run may spend (profiles with pricing; default unlimited)',
  },
  'continuation-out': {
    value: 'FILE',
    help: `write a paused turn's continuation here (needs ${CONTINUATION_SECRET_ENV} or \`agent-assistant secret init\`)`,
  },
  json: { help: 'print one JSON event per line on stdout instead of text' },
};

/** The help of `agent-assistant run`. */
export function runUsage(): string {
  return [
    'Usage: agent-assistant run (--profiles FILE --profile ID | --backend ID) [--prompt TEXT | --prompt-file FILE | < stdin] [options]',
    '       agent-assistant run --project DIR [--agent NAME] (--profiles FILE [--profile ID] | --backend ID) [options]',
    '',
    'Runs one bounded turn and prints the answer as it is written. On a terminal, tool activity and a',
    'spinner go to stderr; a summary line (outcome, stop reason, tokens, cost, time) ends the run.',
    '',
    'Options:',
    ...flagHelp(RUN_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
    '',
    'Exit codes: 0 completed, 1 failed, 2 usage error, 3 needs clarification or awaiting approval,',
    '4 deferred, 130 interrupted (Ctrl+C cancels the turn; its continuation is still written).',
  ].join('\n');
}

/** Run settings from the flags, with paths made absolute. @throws HarnessConfigError (usage) for contradictory flags. */
export function runSettingsFromFlags(flags: ParsedFlags, cwd: string): RunSettings {
  const path = (name: string) => {
    const value = flagValue(flags, name);
    return value === undefined ? undefined : resolve(cwd, value);
  };
  const settings: RunSettings = {
    project: path('project'),
    agent: flagValue(flags, 'agent'),
    profiles: path('profiles'),
    profile: flagValue(flags, 'profile'),
    backend: flagValue(flags, 'backend'),
    backendCommand: flagValue(flags, 'backend-command'),
    model: flagValue(flags, 'model'),
    workspace: path('workspace'),
    requireApproval: [...(flags.values.get('require-approval') ?? [])],
    questionTool: flagSwitch(flags, 'question-tool') ? true : undefined,
    maxIterations: integerFlag(flags, 'max-iterations', 1, 1000),
    maxToolCalls: integerFlag(flags, 'max-tool-calls', 1, 10_000),
    timeoutMs: integerFlag(flags, 'timeout-ms', 1, 2_147_483_647),
    budget: numberFlag(flags, 'budget'),
  };
  const usesProfile = settings.profiles !== undefined || settings.profile !== undefined;
  if (settings.backend !== undefined && usesProfile) throw usageError('Use either --backend or --profiles/--profile, not both.', 'backend');
  if (settings.project === undefined) {
    if (settings.agent !== undefined) throw usageError('--agent names an agent of --project DIR; pass --project too.', 'agent');
  } else {
    if (flagValue(flags, 'system') !== undefined) throw usageError("--system is not for --project: the agent's file and AGENTS.md give the system prompt.", 'system');
    if (settings.requireApproval.length > 0) throw usageError("--require-approval is not for --project: the agent's permission rules decide what asks.", 'require-approval');
    if (settings.backend === undefined && settings.profiles === undefined) {
      throw usageError("--project needs --profiles FILE (the provider profiles its agents' models name) or --backend ID.", 'profiles');
    }
  }
  if (settings.backend === undefined) {
    if (settings.profiles === undefined || (settings.profile === undefined && settings.project === undefined)) {
      throw usageError('Say what runs the turn: --profiles FILE --profile ID, or --backend ID (see `agent-assistant probe`).', 'profile');
    }
    for (const name of ['backend-command', 'model'] as const) {
      if (flagValue(flags, name) !== undefined) throw usageError(`--${name} is for --backend only; a profile names its model.`, name);
    }
  } else if (settings.requireApproval.length > 0) {
    throw usageError('--require-approval is for profiles with --workspace; a backend CLI asks for approval itself.', 'require-approval');
  } else if (settings.questionTool === true) {
    throw usageError('--question-tool is for profiles; a backend CLI has its own way to ask.', 'question-tool');
  }
  if (settings.requireApproval.length > 0 && settings.workspace === undefined) {
    throw usageError('--require-approval needs --workspace (it gates the workspace tools).', 'require-approval');
  }
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as unknown as RunSettings;
}

/** `agent-assistant run`. Resolves with the exit code. @throws HarnessConfigError for usage errors. */
export async function runCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, RUN_FLAGS, 'run');
  if (flags.help) {
    io.stdout(`${runUsage()}\n`);
    return 0;
  }
  const settings = runSettingsFromFlags(flags, io.cwd);
  const text = await readPrompt(io, flagValue(flags, 'prompt'), flagValue(flags, 'prompt-file'));
  const continuationOut = flagValue(flags, 'continuation-out');
  const continuationSecret = await readContinuationSecret(io.env, continuationOut !== undefined);
  const { harness, label } = await buildHarness(settings, {
    env: io.env,
    continuationSecret,
    resumeOnce: false,
    home: homedir(),
    systemPrompt: flagValue(flags, 'system'),
  });
  const view = flagSwitch(flags, 'json') ? jsonTurnView(io) : textTurnView(io);
  const turnId = randomUUID();
  view.started(turnId, label);
  return driveTurn({
    io,
    view,
    resumed: false,
    settings,
    continuationOut:
      continuationOut === undefined || continuationSecret === undefined
        ? undefined
        : { path: resolve(io.cwd, continuationOut), secret: continuationSecret },
    async run(signal) {
      const stream = harness.streamTurn(
        {
          assistantId: 'agent-assistant-cli',
          turnId,
          message: {
            id: randomUUID(),
            text,
            receivedAt: new Date().toISOString(),
          },
        },
        { signal },
      );
      for await (const event of stream) {
        if (event.type === 'step_started') view.stepStarted(event.iteration);
        else if (event.type === 'text_delta') view.text(event.iteration, event.text);
        else if (event.type === 'tool_started') view.toolStarted(event.iteration, event.call);
        else if (event.type === 'tool_finished') view.toolFinished(event.iteration, event.result);
        else if (event.type === 'tool_activity' || event.type === 'plan_update' || event.type === 'approval_requested') view.backendActivity(event);
        else if (event.type === 'reasoning_delta') view.reasoning(event.iteration, event.text);
      }
      return stream.result;
    },
  });
}
