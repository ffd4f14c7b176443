import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart } from '../../core/types/model.js';
import { assertEndpointAllowed, joinUrl } from '../http/assert-endpoint-allowed.js';
import { optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from '../http/http-provider-options.js';
import { createModelSteps } from '../internal/create-model-steps.js';
import { createProviderTransport } from '../internal/create-provider-transport.js';
import type { SseStepHandler } from '../internal/drive-sse-step.js';
import { optionalPlainObject } from '../internal/plain-object-option.js';
import { truncatedStreamOutput, type OutputContext } from '../internal/transport-failure-output.js';
import { convertToOllamaMessages, convertToOllamaTools } from './convert-to-ollama-messages.js';
import { addOllamaChunk, emptyOllamaMessage, mapOllamaMessageToOutput } from './internal/map-ollama-message-to-output.js';
import { ollamaChatChunkSchema } from './ollama-api-types.js';
import { DEFAULT_OLLAMA_MODEL_OPTIONS, type OllamaKeepAlive, type OllamaModelOptions } from './ollama-model-options.js';
import { parseStreamPayload, responseMismatchOutput } from '../internal/parse-stream-payload.js';
import { readToolChoice } from '../internal/to-function-tools.js';
import { UnsupportedInputError } from '../internal/unsupported-input-error.js';

/** A native Ollama model adapter: `nextStep` (one JSON call) and `streamStep` (NDJSON). */
export interface OllamaModel extends HarnessModelAdapter {
  /** The configured model name. */
  readonly model: string;
  /** Runs one model step with a single JSON request (retried on transient failures); never rejects for provider faults. */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Runs one model step over NDJSON: `text_delta` (and `reasoning_delta`) parts as they arrive, then exactly one `output` part. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}

const reservedBodyKeys = ['model', 'messages', 'tools', 'stream', 'keep_alive', 'options', 'think'];
// Go's time.ParseDuration units, as Ollama parses `keep_alive` strings.
const durationPattern = /^-?(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/;

/**
 * Creates a `HarnessModelAdapter` for Ollama's native `/api/chat`: tools (`tool_calls` with JSON
 * object arguments, `tool` messages with `tool_name`), NDJSON streaming, `keep_alive`, runtime
 * `options`, and Ollama's error shapes (`{"error": "…"}` with an HTTP status, or as a stream line).
 * Usage comes from `prompt_eval_count` / `eval_count`; `pricing` turns it into cost. `history` is
 * replayed, inline images go in `images`, an `output` schema in `format`, `message.thinking` streams
 * as `reasoning_delta`; Ollama has no tool choice (`'required'` / `{ name }` end the step with
 * `tool_choice_unsupported`), nor images by URL or other files (`attachments_unsupported`).
 * @throws HarnessConfigError for an invalid option.
 * @example
 * ```ts
 * const model = createOllamaModel({ model: 'qwen3:8b', keepAlive: '10m' });
 * const harness = createHarness({ model, tools });
 * ```
 */
export function createOllamaModel(options: OllamaModelOptions): OllamaModel {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('Options are required.', { field: 'options' });
  const baseUrl = assertEndpointAllowed(options.baseUrl ?? DEFAULT_OLLAMA_MODEL_OPTIONS.baseUrl, 'baseUrl', {
    allowInsecureHttp: options.allowInsecureHttp,
  });
  const model = requiredString(options.model, 'model');
  const keepAlive = validateKeepAlive(options.keepAlive);
  const temperature = optionalFiniteNumber(options.temperature, 'temperature');
  const maxTokens = optionalPositiveInteger(options.maxTokens, 'maxTokens');
  const modelOptions = optionalPlainObject(options.modelOptions, 'modelOptions');
  const extraBody = optionalPlainObject(options.extraBody, 'extraBody');
  const reserved = reservedBodyKeys.find((key) => Object.hasOwn(extraBody, key));
  if (reserved !== undefined) throw new HarnessConfigError(`extraBody must not set "${reserved}".`, { field: `extraBody.${reserved}` });
  const think = options.think;
  if (think !== undefined && typeof think !== 'boolean' && think !== 'low' && think !== 'medium' && think !== 'high') {
    throw new HarnessConfigError("think must be a boolean or 'low', 'medium', 'high'.", { field: 'think' });
  }
  const transportOptions = resolveHttpProviderOptions(options, baseUrl);
  const transport = createProviderTransport({
    url: joinUrl(baseUrl, '/api/chat'),
    options: transportOptions,
    authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    label: 'Ollama',
    streamFormat: 'ndjson',
  });
  const contextWindow = transportOptions.contextWindow;
  // A known window is the server's too (Ollama's default is far smaller), and an input over it an
  // error rather than silently cut from the start, so the harness can compact instead.
  const runtimeOptions = {
    ...(contextWindow === undefined ? {} : { num_ctx: contextWindow }),
    ...modelOptions,
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { num_predict: maxTokens }),
  };

  const buildBody = (input: HarnessModelInput, stream: boolean): Record<string, unknown> => {
    const offerTools = ollamaOffersTools(input);
    return {
      ...(contextWindow === undefined ? {} : { truncate: false }),
      ...extraBody,
      model,
      messages: convertToOllamaMessages(input),
      ...(offerTools ? { tools: convertToOllamaTools(input.availableTools) } : {}),
      stream,
      ...(keepAlive === undefined ? {} : { keep_alive: keepAlive }),
      ...(Object.keys(runtimeOptions).length === 0 ? {} : { options: runtimeOptions }),
      ...(think === undefined ? {} : { think }),
      // The turn's schema wins over an `extraBody.format` ('json') set for other turns.
      ...(input.output === undefined ? {} : { format: input.output.jsonSchema }),
    };
  };

  const mapJson = (value: unknown, context: OutputContext): HarnessModelOutput => {
    const parsed = ollamaChatChunkSchema.safeParse(value);
    if (!parsed.success) return responseMismatchOutput("Ollama's chat format", parsed.error.issues, context);
    const message = emptyOllamaMessage();
    addOllamaChunk(message, parsed.data);
    return mapOllamaMessageToOutput(message, context);
  };

  return {
    model,
    contextWindow,
    ...createModelSteps(transport, {
      provider: 'ollama',
      model,
      buildBody,
      mapJson,
      streamHandler: lineHandler,
      pricing: transportOptions.pricing,
      maxInputBytes: transportOptions.maxInputBytes,
    }),
  };
}

/**
 * Ollama has no tool choice: `'auto'` offers the tools, `'none'` offers none.
 * @throws UnsupportedInputError (reason `tool_choice_unsupported`) for `'required'` or `{ name }` (with tools offered).
 */
function ollamaOffersTools(input: HarnessModelInput): boolean {
  const choice = readToolChoice(input.toolChoice, input.availableTools);
  if (input.availableTools.length === 0 || choice === 'none') return false;
  if (choice === 'auto') return true;
  throw new UnsupportedInputError('tool_choice_unsupported', 'Ollama cannot be made to call a tool (it has no tool choice); use auto or none.');
}

function lineHandler(context: OutputContext): SseStepHandler {
  const message = emptyOllamaMessage();
  return {
    onEvent(event, position) {
      const names = { item: 'Stream line', format: "Ollama's chat format", invalidJsonMeansTruncated: true };
      const parsed = parseStreamPayload(event.data, ollamaChatChunkSchema, context, names, position);
      if (!parsed.ok) return { output: parsed.output };
      const deltas = addOllamaChunk(message, parsed.value);
      const end = message.done || message.error !== undefined;
      return deltas.text === undefined && deltas.reasoning === undefined && !end ? undefined : { ...deltas, ...(end ? { end } : {}) };
    },
    finish() {
      if (!message.done && message.error === undefined) {
        return truncatedStreamOutput(context);
      }
      return mapOllamaMessageToOutput(message, context);
    },
  };
}

function validateKeepAlive(value: unknown): OllamaKeepAlive | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && durationPattern.test(value)) return value;
  throw new HarnessConfigError("keepAlive must be a duration such as '10m' or '1h30m', or a number of seconds.", { field: 'keepAlive' });
}

