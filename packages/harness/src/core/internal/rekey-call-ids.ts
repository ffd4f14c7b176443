import { generateCallId } from '../../shared/generate-call-id.js';
import type { HarnessToolCall } from '../../shared/types/tools.js';
import type { HarnessTranscriptItem } from '../types/transcript.js';

/**
 * The step's calls, each with an id no other call of the turn has. Call ids are the server's, not
 * the model's: some OpenAI-compatible servers number calls `call_0`, `call_1` again in every reply.
 * A call whose id an earlier step (or an earlier call of this step) already used gets a fresh id,
 * as a call without an id does; providers replay the harness's ids, so the conversation they send
 * stays consistent. Calls whose ids are new are returned as they are.
 */
export function rekeyRepeatedCallIds(transcript: readonly HarnessTranscriptItem[], calls: readonly HarnessToolCall[]): HarnessToolCall[] {
  // One call (most steps): compared with the earlier ids as they are, without a set of them.
  if (calls.length === 1 && !usedBefore(transcript, calls[0]!.id)) return [calls[0]!];
  const used = new Set<string>();
  for (const item of transcript) {
    if (item.type === 'assistant_step') for (const call of item.calls ?? []) used.add(call.id);
    else if (item.type === 'tool_result') used.add(item.result.callId);
  }
  return calls.map((call) => {
    if (!used.has(call.id)) {
      used.add(call.id);
      return call;
    }
    let id = generateCallId();
    while (used.has(id)) id = generateCallId();
    used.add(id);
    return { ...call, id };
  });
}

/** Whether an earlier step of the transcript used `id` (a call of its, or a result's). */
function usedBefore(transcript: readonly HarnessTranscriptItem[], id: string): boolean {
  for (const item of transcript) {
    if (item.type === 'assistant_step') {
      for (const call of item.calls ?? []) if (call.id === id) return true;
    } else if (item.type === 'tool_result' && item.result.callId === id) {
      return true;
    }
  }
  return false;
}
