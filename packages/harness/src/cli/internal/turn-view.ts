import type { HarnessResult } from '../../core/types/result.js';
import type { HarnessBackendStreamEvent } from '../../core/types/runtime.js';
import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';
import type { CliIo } from './cli-io.js';
import { resumeHint } from './resume-hint.js';
import { Spinner } from './spinner.js';
import { summaryLine } from './summary-line.js';
import { terminalJson, terminalText } from './terminal-text.js';

/** How a run ended, beyond its result. */
export interface TurnEnding {
  exitCode: number;
  /** Where the continuation was written, if it was. */
  continuationFile?: string | undefined;
  /** Ctrl+C ended the run. */
  interrupted: boolean;
  /** This run continued a paused turn (`resume`): the turn had runs before this one. */
  resumed: boolean;
}

/** Shows one turn as it happens: as text on a terminal, or as JSON lines. */
export interface TurnView {
  started(turnId: string, label: string): void;
  stepStarted(iteration: number): void;
  text(iteration: number, text: string): void;
  toolStarted(iteration: number, call: HarnessToolCall): void;
  toolFinished(iteration: number, result: HarnessToolResult): void;
  /** What a backend reports while it works: its own tool calls, its plan, its permission requests. */
  backendActivity(event: HarnessBackendStreamEvent): void;
  /** The model's reasoning as it arrives (JSON lines only; the text view keeps it off the screen). */
  reasoning(iteration: number, text: string): void;
  /** A note for the person (e.g. interrupted); a `notice` event in JSON. */
  notice(message: string): void;
  finished(result: HarnessResult, ending: TurnEnding): void;
}

/** One JSON object per line on stdout, for scripts. */
export function jsonTurnView(io: CliIo): TurnView {
  const line = (event: Record<string, unknown>) => io.stdout(`${terminalJson(event)}\n`);
  return {
    started: (turnId, label) => line({ type: 'turn_started', turnId, runner: label }),
    stepStarted: (iteration) => line({ type: 'step_started', iteration }),
    text: (iteration, text) => line({ type: 'text_delta', iteration, text }),
    toolStarted: (iteration, call) =>
      line({
        type: 'tool_started',
        iteration,
        callId: call.id,
        name: call.name,
        input: call.input,
      }),
    toolFinished: (iteration, result) =>
      line({
        type: 'tool_finished',
        iteration,
        callId: result.callId,
        name: result.toolName,
        status: result.status,
        ...(result.error === undefined
          ? {}
          : {
              error: { code: result.error.code, message: result.error.message },
            }),
      }),
    backendActivity: (event) => line({ ...event }),
    reasoning: (iteration, text) => line({ type: 'reasoning_delta', iteration, text }),
    notice: (message) => line({ type: 'notice', message }),
    finished: (result, ending) =>
      line({
        type: 'result',
        exitCode: ending.exitCode,
        interrupted: ending.interrupted,
        ...(ending.continuationFile === undefined ? {} : { continuationFile: ending.continuationFile }),
        receipts: result.metadata?.modelReceipts ?? [],
        result,
      }),
  };
}

const preview = (value: unknown, max = 72): string => {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  } catch {
    text = '…';
  }
  // One line: control characters (line breaks, escapes) in outside text are shown escaped.
  text = terminalText(text);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
};

/**
 * The answer streams to stdout (on a terminal with control characters other than line breaks and
 * tabs escaped); on a terminal, tool activity and a spinner go to stderr; the summary line (and
 * how to resume a paused turn) always goes to stderr. Every outside string on stderr is escaped.
 */
export function textTurnView(io: CliIo): TurnView {
  const spinner = new Spinner((text) => io.stderr(text), io.stderrIsTty);
  const answer = (text: string) => io.stdout(io.stdoutIsTty ? terminalText(text, { keepLineBreaks: true }) : text);
  const streamed = new Map<number, string>();
  let atLineStart = true;
  const endLine = () => {
    if (!atLineStart) io.stdout('\n');
    atLineStart = true;
  };
  const activity = (text: string) => {
    if (!io.stderrIsTty) return;
    spinner.stop();
    endLine();
    io.stderr(`${terminalText(text)}\n`);
  };
  return {
    started: (_turnId, label) => {
      if (io.stderrIsTty) io.stderr(`agent-assistant · ${terminalText(label)}\n`);
    },
    stepStarted: () => spinner.start('thinking…'),
    text: (iteration, text) => {
      spinner.stop();
      streamed.set(iteration, (streamed.get(iteration) ?? '') + text);
      answer(text);
      if (text !== '') atLineStart = text.endsWith('\n');
    },
    toolStarted: (_iteration, call) => {
      activity(`  → ${preview(call.name, 60)} ${preview(call.input)}`);
      spinner.start(`running ${preview(call.name, 60)}…`);
    },
    toolFinished: (_iteration, result) => {
      const mark = result.status === 'success' ? '✓' : `✗ ${preview(result.error?.code ?? 'error', 60)}`;
      activity(`  ${mark} ${preview(result.toolName, 60)}`);
    },
    backendActivity: (event) => {
      const line = backendActivityLine(event);
      if (line === undefined) return;
      activity(line);
      if (event.type === 'tool_activity' && event.phase === 'started') spinner.start(`running ${preview(event.name, 60)}…`);
    },
    reasoning: () => undefined,
    notice: (message) => {
      spinner.stop();
      endLine();
      io.stderr(`${terminalText(message)}\n`);
    },
    finished: (result, ending) => {
      spinner.stop();
      const final = result.assistantMessage?.text;
      const alreadyShown = final !== undefined && [...streamed.values()].some((text) => text.trim() === final.trim());
      if (final !== undefined && final !== '' && !alreadyShown) {
        endLine();
        answer(final);
        atLineStart = final.endsWith('\n');
      }
      endLine();
      for (const line of pausedLines(result, ending)) io.stderr(`${terminalText(line)}\n`);
      if (result.error !== undefined) io.stderr(`error: ${terminalText(`${result.error.code} — ${result.error.message}`)}\n`);
      io.stderr(`${terminalText(summaryLine(result, ending.resumed))}\n`);
    },
  };
}

const PLAN_MARKS = { completed: '✓', in_progress: '▸', pending: '○' } as const;

/** One stderr line for a backend's activity, or none (progress updates of a running tool). */
function backendActivityLine(event: HarnessBackendStreamEvent): string | undefined {
  switch (event.type) {
    case 'tool_activity': {
      const what = event.command === undefined ? preview(event.name, 60) : `${preview(event.name, 60)} ${preview(event.command)}`;
      if (event.phase === 'started') return `  → ${what}`;
      if (event.phase === 'updated') return undefined;
      return event.status === undefined || event.status === 'succeeded' ? `  ✓ ${preview(event.name, 60)}` : `  ✗ ${event.status} ${preview(event.name, 60)}`;
    }
    case 'plan_update':
      return `  plan: ${preview(event.entries.map((entry) => `${PLAN_MARKS[entry.status]} ${entry.content}`).join(' · '), 160)}`;
    case 'approval_requested':
      return `  ? ${preview(event.title, 120)}`;
  }
}

/** What to do about a paused turn. */
function pausedLines(result: HarnessResult, ending: TurnEnding): string[] {
  const continuation = result.continuation;
  if (continuation === undefined) return [];
  const lines: string[] = [];
  const state = continuation.state;
  if (continuation.type === 'approval') {
    for (const request of state.approvals ?? [])
      lines.push(`approval needed: [${preview(request.id, 80)}] ${preview(request.summary, 120)}`);
  }
  const choices = continuation.type === 'clarification' ? (result.metadata?.clarification?.choices ?? []) : [];
  if (choices.length > 0) lines.push(`choices: ${choices.map((choice) => preview(choice, 80)).join(' · ')}`);
  if (ending.continuationFile === undefined) {
    lines.push('The turn paused; run it with --continuation-out FILE to be able to resume it.');
    return lines;
  }
  return [...lines, ...resumeHint(ending.continuationFile, continuation)];
}
