import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessResumeResolution } from '../../core/types/continuation.js';
import type { HarnessTraceSink } from '../../core/types/trace.js';
import { buildHarness, STATE_DIR_ENV } from '../internal/build-harness.js';
import type { CliIo } from '../internal/cli-io.js';
import { usageError } from '../internal/cli-usage-error.js';
import { readContinuationFile } from '../internal/continuation-file.js';
import { CONTINUATION_SECRET_ENV, readContinuationSecret } from '../internal/continuation-secret.js';
import { driveTurn } from '../internal/drive-turn.js';
import { flagHelp, flagSwitch, flagValue, parseFlags, type FlagSpecs } from '../internal/parse-flags.js';
import { jsonTurnView, textTurnView, type TurnView } from '../internal/turn-view.js';

/** The flags of `agent-assistant resume`. */
export const RESUME_FLAGS: FlagSpecs = {
  continuation: {
    value: 'FILE',
    help: 'the file `run --continuation-out` wrote (required)',
  },
  approve: {
    value: 'ID',
    help: 'approve the request ID (repeatable)',
    repeat: true,
  },
  reject: {
    value: 'ID',
    help: 'reject the request ID (repeatable)',
    repeat: true,
  },
  answer: { value: 'TEXT', help: 'answer the clarification question' },
  'continuation-out': {
    value: 'FILE',
    help: 'where a turn that pauses again writes its continuation (default: --continuation)',
  },
  json: { help: 'print one JSON event per line on stdout instead of text' },
};

/** The help of `agent-assistant resume`. */
export function resumeUsage(): string {
  return [
    'Usage: agent-assistant resume --continuation FILE (--approve ID | --reject ID | --answer TEXT) [options]',
    '',
    'Continues a paused turn with the profile or backend, workspace and limits it ran with. Every',
    'request of an approval must be decided (--approve or --reject each id); a clarification needs',
    '--answer; a deferred turn (limits reached, Ctrl+C) continues with no decision.',
    `Needs the same continuation secret as the run (${CONTINUATION_SECRET_ENV}, or the key file of`,
    '`agent-assistant secret init`). Each continuation resumes once on this machine (claims under',
    `$${STATE_DIR_ENV}, default ~/.agent-assistant).`,
    '',
    'Options:',
    ...flagHelp(RESUME_FLAGS),
    `  ${'-h, --help'.padEnd(30)} show this help`,
    '',
    'Exit codes: as for `agent-assistant run`.',
  ].join('\n');
}

function resolutionFor(
  type: unknown,
  approve: readonly string[],
  reject: readonly string[],
  answer: string | undefined,
): HarnessResumeResolution {
  const decided = approve.length + reject.length > 0;
  if (type === 'approval') {
    if (answer !== undefined || !decided)
      throw usageError('This turn awaits approval: decide each request with --approve ID or --reject ID.', 'approve');
    const decisions: Record<string, 'approved' | 'rejected'> = Object.create(null) as Record<string, 'approved' | 'rejected'>;
    for (const id of approve) decisions[id] = 'approved';
    for (const id of reject) {
      if (decisions[id] !== undefined)
        throw usageError(`Request ${JSON.stringify(id)} is both approved and rejected; choose one.`, 'reject');
      decisions[id] = 'rejected';
    }
    return { type: 'approval', decisions: { ...decisions } };
  }
  if (type === 'clarification') {
    if (answer === undefined || decided) throw usageError('This turn needs an answer: pass --answer TEXT.', 'answer');
    return { type: 'clarification', answer };
  }
  if (type === 'deferred') {
    if (answer !== undefined || decided)
      throw usageError('This turn was deferred: resume it with no --approve, --reject or --answer.', 'answer');
    return { type: 'deferred' };
  }
  throw usageError(
    'The continuation has no known type (clarification, approval or deferred); pass a file `run --continuation-out` wrote.',
    'continuation',
  );
}

/** Tool activity of a resumed run, from its trace (resumeTurn does not stream). */
function toolActivity(view: TurnView): HarnessTraceSink {
  return {
    emit(event) {
      if (event.type === 'model_step_started') view.stepStarted(event.iteration);
      else if (event.type === 'tool_started') view.toolStarted(event.iteration, event.call);
      else if (event.type === 'tool_finished' || event.type === 'tool_failed') view.toolFinished(event.iteration, event.result);
    },
  };
}

/** `agent-assistant resume`. Resolves with the exit code. @throws HarnessConfigError for usage errors. */
export async function resumeCommand(io: CliIo, argv: readonly string[]): Promise<number> {
  const flags = parseFlags(argv, RESUME_FLAGS, 'resume');
  if (flags.help) {
    io.stdout(`${resumeUsage()}\n`);
    return 0;
  }
  const file = flagValue(flags, 'continuation');
  if (file === undefined)
    throw usageError('Pass --continuation FILE: the file `agent-assistant run --continuation-out FILE` wrote.', 'continuation');
  const path = resolve(io.cwd, file);
  const secret = await readContinuationSecret(io.env, true);
  const stored = await readContinuationFile(path, secret);
  const type = (stored.continuation as { type?: unknown } | null)?.type;
  const resolution = resolutionFor(type, flags.values.get('approve') ?? [], flags.values.get('reject') ?? [], flagValue(flags, 'answer'));
  const view = flagSwitch(flags, 'json') ? jsonTurnView(io) : textTurnView(io);
  const { harness, label } = await buildHarness(stored.settings, {
    env: io.env,
    continuationSecret: secret,
    resumeOnce: true,
    home: homedir(),
    trace: toolActivity(view),
  });
  const out = flagValue(flags, 'continuation-out');
  view.started(String((stored.continuation as { turnId?: unknown }).turnId ?? ''), label);
  return driveTurn({
    io,
    view,
    resumed: true,
    settings: stored.settings,
    continuationOut: { path: out === undefined ? path : resolve(io.cwd, out), secret },
    async run(signal) {
      try {
        return await harness.resumeTurn(stored.continuation, resolution, {
          signal,
        });
      } catch (error) {
        if (!HarnessConfigError.isInstance(error)) throw error;
        const pending = (
          (
            stored.continuation as {
              state?: { approvals?: { id?: unknown }[] };
            }
          ).state?.approvals ?? []
        ).map((request) => String(request.id));
        throw usageError(
          `${error.message}${pending.length === 0 ? '' : ` Pending requests: ${pending.map((id) => JSON.stringify(id)).join(', ')}.`}`,
          error.field,
        );
      }
    },
  });
}
