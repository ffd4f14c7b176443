import { stableStringify } from '../../core/continuation/stable-stringify.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessToolRegistry, HarnessToolResult, HarnessToolState } from '../../shared/types/tools.js';

/** The tool state key the guard keeps first results under. */
const STATE_KEY = 'idempotency.results';

/** What the model reads after a repeated call's output. */
export const IDEMPOTENT_REPLAY_NOTE =
  '[This call repeats an earlier call in this turn with the same input; the tool did not run again and this is the earlier result.]';

interface Remembered {
  key: string;
  result: HarnessToolResult;
}

/**
 * Wraps a registry so a call repeated within a turn — the same tool with the same input
 * (compared as canonical JSON) — returns the first successful result instead of running again,
 * with a note to the model. First results are kept in the turn's tool state, so this holds
 * across a pause and resume too; results that no longer fit its size limit are not kept (the
 * call then runs again). Failed calls are never remembered, so the model can retry them.
 * @throws HarnessConfigError when `registry` is not a tool registry.
 * @example
 * ```ts
 * const harness = createHarness({ model, tools: createIdempotencyGuard(createToolRegistry([sendEmail])) });
 * ```
 */
export function createIdempotencyGuard<TRegistry extends HarnessToolRegistry>(registry: TRegistry): TRegistry {
  if (typeof registry?.listAvailable !== 'function' || typeof registry.execute !== 'function') {
    throw new HarnessConfigError('createIdempotencyGuard expects a tool registry (listAvailable and execute).', { field: 'registry' });
  }
  const guarded: HarnessToolRegistry = {
    listAvailable: (input) => registry.listAvailable(input),
    async execute(call, context) {
      const state = context.state;
      if (state === undefined) return registry.execute(call, context);
      const key = `${call.name}\u0000${stableStringify(call.input)}`;
      const earlier = read(state).find((entry) => entry.key === key);
      if (earlier !== undefined) {
        return {
          ...earlier.result,
          callId: call.id,
          toolName: call.name,
          output: earlier.result.output === undefined || earlier.result.output === '' ? IDEMPOTENT_REPLAY_NOTE : `${earlier.result.output}\n\n${IDEMPOTENT_REPLAY_NOTE}`,
          metadata: { ...earlier.result.metadata, idempotentReplay: true, firstCallId: earlier.result.callId },
        };
      }
      const result = await registry.execute(call, context);
      if (result?.status === 'success') {
        // Best effort: a result too large for the tool state is simply not remembered.
        state.set(STATE_KEY, [...read(state), { key, result }]);
      }
      return result;
    },
  };
  // Keeps `toolNames` and any other members (close, refresh) of the wrapped registry.
  return Object.assign(Object.create(registry) as TRegistry, guarded);
}

function read(state: HarnessToolState): Remembered[] {
  const value = state.get(STATE_KEY);
  if (!Array.isArray(value)) return [];
  return value.filter(
    (entry): entry is Remembered =>
      typeof entry === 'object' && entry !== null && typeof (entry as Remembered).key === 'string' && typeof (entry as Remembered).result === 'object',
  );
}
