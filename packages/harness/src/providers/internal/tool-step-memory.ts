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

/** Limits of a `ToolStepMemory`. */
export interface ToolStepMemoryOptions<T> {
  /** Most steps kept; the oldest is forgotten first. @default 128 */
  maxSteps?: number;
  /** Most weight (see `weigh`) kept over all steps; a single heavier step is not kept at all. @default 8388608 */
  maxWeight?: number;
  /** The weight of a value, e.g. its serialized size in characters. @default () => 0 */
  weigh?: (value: T) => number;
}

/** Default limits of a `ToolStepMemory`: 128 steps, 8 MiB of weight. */
export const DEFAULT_TOOL_STEP_MEMORY_LIMITS: Readonly<{ maxSteps: number; maxWeight: number }> = /* @__PURE__ */ Object.freeze({ maxSteps: 128, maxWeight: 8 * 1024 * 1024 });

/**
 * A bounded in-memory map from a tool step (its calls' ids, names and inputs) to provider state.
 * A step is found again only when every call matches, so a reused call id from another turn or a
 * different step never picks up foreign state. Steps and their total weight are capped (oldest
 * forgotten first), so a provider sending huge state cannot grow it without bound. The state lives
 * as long as the adapter instance: after a resume in another process it is gone, and the provider
 * replays the step without it.
 */
export function createToolStepMemory<T>(options: ToolStepMemoryOptions<T> = {}): ToolStepMemory<T> {
  const maxSteps = options.maxSteps ?? DEFAULT_TOOL_STEP_MEMORY_LIMITS.maxSteps;
  const maxWeight = options.maxWeight ?? DEFAULT_TOOL_STEP_MEMORY_LIMITS.maxWeight;
  const weigh = options.weigh ?? (() => 0);
  const entries = new Map<string, { value: T; weight: number }>();
  let total = 0;
  const forget = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    total -= entry.weight;
    entries.delete(key);
  };
  return {
    remember(calls, value) {
      const key = stepKey(calls);
      if (key === undefined) return;
      forget(key);
      const weight = weigh(value);
      if (!(weight <= maxWeight)) return;
      entries.set(key, { value, weight });
      total += weight;
      while (entries.size > maxSteps || total > maxWeight) {
        const oldest = entries.keys().next();
        if (oldest.done === true) break;
        forget(oldest.value);
      }
    },
    recall(calls) {
      const key = stepKey(calls);
      return key === undefined ? undefined : entries.get(key)?.value;
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
