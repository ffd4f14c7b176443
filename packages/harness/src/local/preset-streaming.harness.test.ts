// streamTurn over the one-shot CLI presets whose output is a stream (Claude Code stream-json,
// Gemini CLI stream-json, codex JSONL): live events from the fake CLIs in __fixtures__, which
// print the recorded shapes of the real ones; under runTurn the CLIs are not asked to stream.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness } from '../core/create-harness.js';
import type { HarnessStreamEvent } from '../core/types/runtime.js';
import type { ExecutionAdapter } from '../execution/types.js';
import { cleanupTempDirs, fixtureExecutable, loggedCalls, tempDir, turnInput } from './__fixtures__/test-helpers.js';
import { createClaudeCodeAdapter } from './claude-code-adapter.js';
import { createCodexAdapter } from './codex-adapter.js';
import { createGeminiCliAdapter } from './gemini-cli-adapter.js';
import { createOpenCodeAdapter } from './opencode-adapter.js';

let home: string;
let log: string;

beforeEach(() => {
  home = tempDir('preset-streaming-');
  log = join(home, 'calls.jsonl');
});
afterEach(cleanupTempDirs);

const env = () => ({ HOME: home, FAKE_CLI_LOG: log });
const claude = () => createClaudeCodeAdapter({ command: fixtureExecutable(home, 'claude', 'fake-claude.mjs'), env: env(), killGraceMs: 200 });
const gemini = () => createGeminiCliAdapter({ command: fixtureExecutable(home, 'gemini', 'fake-gemini.mjs'), env: env(), killGraceMs: 200 });
const codex = () => createCodexAdapter({ command: fixtureExecutable(home, 'codex', 'fake-codex.mjs'), env: env(), killGraceMs: 200 });

async function streamed(backend: ExecutionAdapter, text: string) {
  const stream = createHarness({ backend }).streamTurn(turnInput(text));
  const events: HarnessStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  const live = events.filter((event) => !['turn_started', 'step_started', 'step_finished', 'result'].includes(event.type));
  return { events: live, result: await stream.result };
}

const text = (events: HarnessStreamEvent[]) => events.flatMap((event) => (event.type === 'text_delta' ? [event.text] : []));

describe('live events from the one-shot CLI presets', () => {
  it('Claude Code: partial-message deltas, Bash and TodoWrite activity, the todo list as a plan', async () => {
    const { events, result } = await streamed(claude(), 'FAKE_TOOL please');
    expect(loggedCalls(log)[0]!.argv.slice(0, 5)).toEqual(['-p', '--output-format', 'stream-json', '--verbose', '--include-partial-messages']);
    expect(events).toEqual([
      { type: 'tool_activity', iteration: 1, phase: 'started', toolCallId: 'toolu_1', name: 'Bash', kind: 'command', command: 'echo TOOL_OK' },
      { type: 'tool_activity', iteration: 1, phase: 'started', toolCallId: 'toolu_2', name: 'TodoWrite', kind: 'other' },
      {
        type: 'plan_update',
        iteration: 1,
        entries: [
          { content: 'Run the check', status: 'in_progress' },
          { content: 'Report', status: 'pending' },
        ],
      },
      { type: 'tool_activity', iteration: 1, phase: 'finished', toolCallId: 'toolu_1', name: 'Bash', kind: 'command', status: 'succeeded' },
      { type: 'tool_activity', iteration: 1, phase: 'finished', toolCallId: 'toolu_2', name: 'TodoWrite', kind: 'other', status: 'succeeded' },
      { type: 'text_delta', iteration: 1, text: 'PONG ' },
      { type: 'text_delta', iteration: 1, text: 'from ' },
      { type: 'text_delta', iteration: 1, text: 'fake (message 1)' },
    ]);
    expect(text(events).join('')).toBe(result.assistantMessage?.text);
    expect(result.metadata?.['streamedTextDiverged']).toBeUndefined();
  });

  it('Claude Code: whole assistant messages when the CLI sends no partial deltas', async () => {
    const { events, result } = await streamed(claude(), 'FAKE_NO_PARTIAL');
    expect(text(events)).toEqual(['PONG from fake (message 1)']);
    expect(result.outcome).toBe('completed');
  });

  it('Gemini CLI: stream-json message deltas and the shell tool, with usage and session from the stream', async () => {
    const { events, result } = await streamed(gemini(), 'FAKE_TOOL please');
    const [call] = loggedCalls(log);
    expect(call!.argv.slice(0, 2)).toEqual(['--output-format', 'stream-json']);
    expect(events).toEqual([
      { type: 'tool_activity', iteration: 1, phase: 'started', toolCallId: 'run_shell_command__1', name: 'run_shell_command', kind: 'command', command: 'echo TOOL_OK' },
      { type: 'tool_activity', iteration: 1, phase: 'finished', toolCallId: 'run_shell_command__1', name: 'run_shell_command', kind: 'command', status: 'succeeded' },
      { type: 'text_delta', iteration: 1, text: 'PONG from fake ' },
      { type: 'text_delta', iteration: 1, text: '(message 1)' },
    ]);
    expect(result).toMatchObject({ outcome: 'completed', assistantMessage: { text: 'PONG from fake (message 1)' }, usage: { totalInputTokens: 12, totalOutputTokens: 5 } });
    const session = call!.argv.find((arg) => arg.startsWith('--session-id='))!.slice('--session-id='.length);
    expect(result.metadata?.['backendMetadata']).toMatchObject({ sessionId: session });
  });

  it('Gemini CLI: an API error in stream-json is a failed turn with the message', async () => {
    const { result } = await streamed(gemini(), 'FAKE_HTTP_400');
    expect(result).toMatchObject({ outcome: 'failed' });
    expect(result.error?.message).toContain('fake injected HTTP 400');
  });

  it('Codex: command executions started and finished, the agent message as it completes', async () => {
    const { events, result } = await streamed(codex(), 'hello');
    expect(events).toEqual([
      { type: 'tool_activity', iteration: 1, phase: 'started', toolCallId: 'item_0', name: 'command_execution', kind: 'command', command: "/bin/bash -lc 'echo TOOL_OK'" },
      { type: 'tool_activity', iteration: 1, phase: 'finished', toolCallId: 'item_0', name: 'command_execution', kind: 'command', command: "/bin/bash -lc 'echo TOOL_OK'", status: 'succeeded' },
      { type: 'text_delta', iteration: 1, text: 'PONG from fake (message 1)' },
    ]);
    expect(result.assistantMessage?.text).toBe('PONG from fake (message 1)');
  });

  it('asks Claude Code and Gemini CLI for their plain JSON format under runTurn', async () => {
    await createHarness({ backend: claude() }).runTurn(turnInput('hi'));
    await createHarness({ backend: gemini() }).runTurn(turnInput('hi'));
    const [claudeCall, geminiCall] = loggedCalls(log);
    expect(claudeCall!.argv.slice(0, 3)).toEqual(['-p', '--output-format', 'json']);
    expect(geminiCall!.argv.slice(0, 2)).toEqual(['--output-format', 'json']);
  });

  it('declares streaming truthfully and steer as unsupported', () => {
    expect(claude().describeCapabilities()).toMatchObject({ streaming: true, steer: false });
    expect(gemini().describeCapabilities()).toMatchObject({ streaming: true, steer: false });
    expect(codex().describeCapabilities()).toMatchObject({ streaming: true, steer: false });
    expect(createOpenCodeAdapter().describeCapabilities()).toMatchObject({ streaming: false, steer: false });
  });
});
