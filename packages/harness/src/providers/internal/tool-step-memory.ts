import type { HarnessToolCall } from '../../shared/types/tools.js';

/**
 * What a provider must send back with a tool step that the harness transcript does not keep
 * (OpenAI Responses reasoning items, Gemini thought signatures), remembered per step.
 */
export interface ToolStepMemory<T> {
  /** Remembers `value` for the step that asked for exactly these calls. */
  remember(calls: readonly HarnessToolCall[], value: T): void;
  /** The value remembered for a step with exactly these calls (ids, names and inputs), if any. */
  recall(calls: readonly HarnessToolCall[]): T | undefined;
}

/** Steps remembered per adapter by default; the oldest is forgotten first. */
export const DEFAULT_TOOL_STEP_MEMORY_LIMIT = 128;

/**
 * A bounded in-memory map from a tool step (its calls' ids, names and inputs) to provider state.
 * A step is found again only when every call matches, so a reused call id from another turn or a
 * different step never picks up foreign state. The state lives as long as the adapter instance:
 * after a resume in another process it is gone, and the provider replays the step without it.
 */
export function createToolStepMemory<T>(limit: number = DEFAULT_TOOL_STEP_MEMORY_LIMIT): ToolStepMemory<T> {
  const entries = new Map<string, T>();
  return {
    remember(calls, value) {
      const key = stepKey(calls);
      if (key === undefined) return;
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > limit) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        entries.delete(oldest.value);
      }
    },
    recall(calls) {
      const key = stepKey(calls);
      return key === undefined ? undefined : entries.get(key);
    },
  };
}

function stepKey(calls: readonly HarnessToolCall[]): string | undefined {
  if (calls.length === 0) return undefined;
  try {
    return JSON.stringify(calls.map((call) => [call.id, call.name, call.input]));
  } catch {
    return undefined;
  }
}
