import { describe, expect, it } from 'vitest';
import type { HarnessTranscriptItem } from '../../core/types/transcript.js';
import { replayTranscript } from './replay-transcript.js';

const call = (id: string, name = 'lookup', input: Record<string, unknown> = { q: id }) => ({ id, name, input });

describe('replayTranscript', () => {
  it('puts each result right after its tool step, in call order, with real arguments and the step text', () => {
    const transcript: HarnessTranscriptItem[] = [
      { type: 'assistant_step', iteration: 1, outputType: 'tool_request', text: 'Let me look.', calls: [call('a'), call('b')] },
      { type: 'tool_result', iteration: 1, result: { callId: 'b', toolName: 'lookup', status: 'success', output: 'B' } },
      { type: 'tool_result', iteration: 1, result: { callId: 'a', toolName: 'lookup', status: 'error', error: { code: 'boom', message: 'failed', retryable: true } } },
      { type: 'assistant_step', iteration: 2, outputType: 'final_answer', text: 'Done.' },
    ];
    expect(replayTranscript(transcript)).toEqual([
      { role: 'assistant', text: 'Let me look.', calls: [call('a'), call('b')] },
      {
        role: 'tool_results',
        results: [
          { call: call('a'), content: '{"error":{"code":"boom","message":"failed","retryable":true}}', isError: true },
          { call: call('b'), content: 'B', isError: false },
        ],
      },
      { role: 'assistant', text: 'Done.' },
    ]);
  });

  it('never replays invalid outputs as speech; a schema mismatch becomes a note', () => {
    const entries = replayTranscript([
      { type: 'invalid_output', iteration: 1, kind: 'transient', reason: 'HTTP 503 Service Unavailable' },
      { type: 'invalid_output', iteration: 2, kind: 'provider_error', reason: 'timeout' },
      { type: 'invalid_output', iteration: 3, kind: 'schema_mismatch', reason: 'The arguments of tool call "x" are not valid JSON.' },
    ]);
    expect(entries).toEqual([{ role: 'note', text: 'Your previous reply could not be used, so nothing in it was run: The arguments of tool call "x" are not valid JSON. Please try again.' }]);
    expect(JSON.stringify(entries)).not.toContain('503');
  });

  it('gives a call without a result a not_executed error, and drops orphan results', () => {
    const entries = replayTranscript([
      { type: 'tool_result', iteration: 0, result: { callId: 'orphan', toolName: 'x', status: 'success', output: 'o' } },
      { type: 'assistant_step', iteration: 1, outputType: 'tool_request', calls: [call('a')] },
    ]);
    expect(entries).toEqual([
      { role: 'assistant', calls: [call('a')] },
      { role: 'tool_results', results: [{ call: call('a'), content: '{"error":{"code":"not_executed","message":"This tool call was not executed."}}', isError: true }] },
    ]);
  });

  it('replays clarifications once, answers as user turns, and approval decisions as notes', () => {
    const entries = replayTranscript([
      { type: 'assistant_step', iteration: 1, outputType: 'clarification', text: 'Which city?' },
      { type: 'clarification_request', iteration: 1, question: 'Which city?' },
      { type: 'clarification_answer', iteration: 1, answer: 'Oslo' },
      { type: 'assistant_step', iteration: 2, outputType: 'tool_request', calls: [call('a', 'delete_file')] },
      { type: 'approval_request', iteration: 2, request: { id: 'a', kind: 'tool_call', summary: 'Run delete_file' } },
      { type: 'approval_decision', iteration: 2, requestId: 'a', decision: 'rejected' },
      { type: 'tool_result', iteration: 2, result: { callId: 'a', toolName: 'delete_file', status: 'error', error: { code: 'rejected', message: 'Rejected.' } } },
      { type: 'clarification_request', iteration: 3, question: 'Anything else?' },
      { type: 'approval_request', iteration: 3, request: { id: 'r', kind: 'backend_approval', summary: 'Deploy' } },
    ]);
    expect(entries.map((entry) => entry.role)).toEqual(['assistant', 'user', 'assistant', 'tool_results', 'note', 'assistant', 'assistant']);
    expect(entries[4]).toEqual({ role: 'note', text: 'Approval decision for request "a": rejected.' });
    expect(entries[5]).toEqual({ role: 'assistant', text: 'Anything else?' });
    expect(entries[6]).toEqual({ role: 'assistant', text: 'Approval needed: Deploy' });
  });

  it('replays the question of a tool call and its answer only as that call and its result', () => {
    const entries = replayTranscript([
      { type: 'assistant_step', iteration: 1, outputType: 'tool_request', calls: [call('q1', 'question', { question: 'Which city?' })] },
      { type: 'clarification_request', iteration: 1, question: 'Which city?', callId: 'q1', choices: ['Oslo', 'Bergen'] },
      { type: 'clarification_answer', iteration: 1, answer: 'Oslo', callId: 'q1' },
      { type: 'tool_result', iteration: 1, result: { callId: 'q1', toolName: 'question', status: 'success', output: 'Oslo' } },
    ]);
    expect(entries).toEqual([
      { role: 'assistant', calls: [call('q1', 'question', { question: 'Which city?' })] },
      { role: 'tool_results', results: [{ call: call('q1', 'question', { question: 'Which city?' }), content: 'Oslo', isError: false }] },
    ]);
  });
});
