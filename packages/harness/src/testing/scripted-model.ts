import { HarnessError } from '../core/errors/harness-error.js';
import type {
  HarnessModelAdapter,
  HarnessModelInput,
  HarnessModelOutput,
  HarnessModelStreamPart,
} from '../core/types/model.js';

/** A step that streams `deltas` before returning `output`. */
export interface ScriptedStreamStep {
  deltas: string[];
  output: HarnessModelOutput;
}

/** One scripted step: an output, a streamed output, or a function of the model input. */
export type ScriptedModelStep =
  | HarnessModelOutput
  | ScriptedStreamStep
  | ((input: HarnessModelInput) => HarnessModelOutput | ScriptedStreamStep | Promise<HarnessModelOutput | ScriptedStreamStep>);

/** Options of `createScriptedModel`. */
export interface ScriptedModelOptions {
  /** The context window the model reports (`HarnessModelAdapter.contextWindow`), turning on automatic compaction. */
  contextWindow?: number | undefined;
}

/** A deterministic model adapter for tests, with a record of every call. */
export interface ScriptedModel extends Required<Omit<HarnessModelAdapter, 'contextWindow'>> {
  /** The `contextWindow` option, when given. */
  readonly contextWindow?: number | undefined;
  /** The input of every call, in order. */
  readonly calls: HarnessModelInput[];
  /** Steps not used yet. */
  remaining(): number;
}

/**
 * Creates a model that answers each call with the next scripted step (or always with the one
 * function given). A call past the script throws `HARNESS_ERR_FAKE_NOT_SCRIPTED`, which the
 * harness reports as `failed` / `runtime_error`.
 * @example
 * ```ts
 * const model = createScriptedModel([
 *   { type: 'tool_request', calls: [{ id: 'c1', name: 'lookup_weather', input: { city: 'Oslo' } }] },
 *   { type: 'final_answer', text: 'Sunny in Oslo.' },
 * ]);
 * ```
 */
export function createScriptedModel(
  steps: ScriptedModelStep[] | ((input: HarnessModelInput) => HarnessModelOutput | Promise<HarnessModelOutput>),
  options: ScriptedModelOptions = {},
): ScriptedModel {
  const calls: HarnessModelInput[] = [];
  let cursor = 0;
  const next = async (input: HarnessModelInput): Promise<HarnessModelOutput | ScriptedStreamStep> => {
    calls.push(input);
    if (typeof steps === 'function') return steps(input);
    const step = steps[cursor];
    if (step === undefined) {
      throw new HarnessError(
        'HARNESS_ERR_FAKE_NOT_SCRIPTED',
        `The scripted model was called ${calls.length} times but has only ${steps.length} steps.`,
      );
    }
    cursor += 1;
    return typeof step === 'function' ? step(input) : step;
  };
  return {
    ...(options.contextWindow === undefined ? {} : { contextWindow: options.contextWindow }),
    calls,
    remaining: () => (typeof steps === 'function' ? Infinity : steps.length - cursor),
    async nextStep(input) {
      const step = await next(input);
      return isStreamStep(step) ? step.output : step;
    },
    async *streamStep(input): AsyncIterable<HarnessModelStreamPart> {
      const step = await next(input);
      const output = isStreamStep(step) ? step.output : step;
      const deltas = isStreamStep(step) ? step.deltas : defaultDeltas(output);
      for (const text of deltas) yield { type: 'text_delta', text };
      yield { type: 'output', output };
    },
  };
}

function isStreamStep(step: HarnessModelOutput | ScriptedStreamStep): step is ScriptedStreamStep {
  return typeof step === 'object' && step !== null && 'deltas' in step && Array.isArray(step.deltas);
}

function defaultDeltas(output: HarnessModelOutput): string[] {
  if (typeof output !== 'object' || output === null || output.type !== 'final_answer' || typeof output.text !== 'string') return [];
  return output.text.match(/\S+\s*/g) ?? [];
}
