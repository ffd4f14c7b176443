import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelAdapter, HarnessModelInput, HarnessModelOutput, HarnessModelStreamPart, HarnessOutputFormat } from '../../core/types/model.js';
import { assertEndpointAllowed, joinUrl } from '../http/assert-endpoint-allowed.js';
import { optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from '../http/http-provider-options.js';
import { createModelSteps } from '../internal/create-model-steps.js';
import { createProviderTransport, type ProviderTransport, type ProviderTransportConfig } from '../internal/create-provider-transport.js';
import type { SseStepHandler } from '../internal/drive-sse-step.js';
import { optionalPlainObject } from '../internal/plain-object-option.js';
import { truncatedStreamOutput, type OutputContext } from '../internal/transport-failure-output.js';
import { readToolChoice } from '../internal/to-function-tools.js';
import { convertToGeminiContents, convertToGeminiTools } from './convert-to-gemini-contents.js';
import { geminiResponseSchema } from './gemini-api-types.js';
import { DEFAULT_GEMINI_MODEL_OPTIONS, type GeminiModelOptions } from './gemini-model-options.js';
import { addGeminiChunk, emptyGeminiResponse, mapGeminiResponseToOutput } from './internal/map-gemini-response-to-output.js';
import { parseStreamPayload, responseMismatchOutput } from '../internal/parse-stream-payload.js';

/** A Gemini model adapter: `nextStep` (`generateContent`) and `streamStep` (`streamGenerateContent` over SSE). */
export interface GeminiModel extends HarnessModelAdapter {
  /** The configured model. */
  readonly model: string;
  /** Runs one model step with a single `generateContent` call (retried on transient failures); never rejects for provider faults. */
  nextStep(input: HarnessModelInput): Promise<HarnessModelOutput>;
  /** Runs one model step over `streamGenerateContent?alt=sse`: `text_delta` and `reasoning_delta` (thought) parts as they arrive, then exactly one `output` part. */
  streamStep(input: HarnessModelInput): AsyncIterable<HarnessModelStreamPart>;
}

const reservedBodyKeys = ['contents', 'systemInstruction', 'tools', 'toolConfig', 'generationConfig'];
const modelPattern = /^(?:(?:models|tunedModels)\/)?[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * Creates a `HarnessModelAdapter` for the Gemini API: `generateContent` and
 * `streamGenerateContent` (SSE), history as `user` / `model` contents, attachments as `inlineData`
 * / `fileData` parts, `functionCall` / `functionResponse` parts (tools described with JSON Schema)
 * and tool choice (`toolConfig.functionCallingConfig`), structured output
 * (`generationConfig.responseJsonSchema`; in steps with tools only with `structuredOutputWithTools`,
 * else as text in `systemInstruction`), the system instruction, thought parts streamed as
 * `reasoning_delta`, thought signatures kept in the transcript as `gemini` reasoning parts and sent
 * back on the parts they came with (also after a resume in another process), usage with cached and
 * thinking tokens, and safety blocks (of the prompt or the answer) as
 * `refusal` outputs, so the turn ends `model_refused`. The key travels only in the
 * `x-goog-api-key` header, never in the URL.
 * @throws HarnessConfigError for an invalid option.
 * @example
 * ```ts
 * const model = createGeminiModel({ apiKey: { env: 'GEMINI_API_KEY' }, model: 'gemini-2.5-flash' });
 * const harness = createHarness({ model, tools });
 * ```
 */
export function createGeminiModel(options: GeminiModelOptions): GeminiModel {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('Options are required.', { field: 'options' });
  const baseUrl = assertEndpointAllowed(options.baseUrl ?? DEFAULT_GEMINI_MODEL_OPTIONS.baseUrl, 'baseUrl', {
    allowInsecureHttp: options.allowInsecureHttp,
  });
  const model = requiredString(options.model, 'model');
  if (!modelPattern.test(model)) {
    throw new HarnessConfigError('model must be a Gemini model name such as gemini-2.5-flash (letters, digits, ".", "_", "-").', { field: 'model' });
  }
  const temperature = optionalFiniteNumber(options.temperature, 'temperature');
  const maxTokens = optionalPositiveInteger(options.maxTokens, 'maxTokens');
  const generationExtra = optionalPlainObject(options.generationConfig, 'generationConfig');
  const extraBody = optionalPlainObject(options.extraBody, 'extraBody');
  const reserved = reservedBodyKeys.find((key) => Object.hasOwn(extraBody, key));
  if (reserved !== undefined) throw new HarnessConfigError(`extraBody must not set "${reserved}".`, { field: `extraBody.${reserved}` });
  const generationConfig = {
    ...generationExtra,
    ...(temperature === undefined ? {} : { temperature }),
    ...(maxTokens === undefined ? {} : { maxOutputTokens: maxTokens }),
  };
  const outputWithTools = options.structuredOutputWithTools ?? false;
  if (typeof outputWithTools !== 'boolean') throw new HarnessConfigError('structuredOutputWithTools must be a boolean.', { field: 'structuredOutputWithTools' });
  const transportOptions = resolveHttpProviderOptions(options, baseUrl);
  const resource = joinUrl(baseUrl, `/${model.includes('/') ? model : `models/${model}`}`);
  const config: Omit<ProviderTransportConfig, 'url'> = {
    options: transportOptions,
    authHeaders: (apiKey) => ({ 'x-goog-api-key': apiKey }),
    label: 'Gemini',
  };
  const json = createProviderTransport({ ...config, url: `${resource}:generateContent` });
  const stream = createProviderTransport({ ...config, url: `${resource}:streamGenerateContent?alt=sse` });
  const transport: ProviderTransport = {
    sendJson: (body, context) => json.sendJson(body, context),
    openStream: (body, context) => stream.openStream(body, context),
    waitToRetry: (attempt, context, failed) => json.waitToRetry(attempt, context, failed),
  };

  const buildBody = (input: HarnessModelInput): Record<string, unknown> => {
    const tools = input.availableTools.length > 0;
    const native = input.output !== undefined && (!tools || outputWithTools);
    const config = native && input.output !== undefined ? withOutput(generationConfig, input.output) : generationConfig;
    const toolConfig = !tools || input.toolChoice === undefined ? undefined : toToolConfig(input);
    const prompt = convertToGeminiContents(input);
    if (input.output !== undefined && !native) {
      prompt.systemInstruction = { parts: [...(prompt.systemInstruction?.parts ?? []), { text: outputInstruction(input.output) }] };
    }
    return {
      ...extraBody,
      ...prompt,
      ...(input.availableTools.length === 0 ? {} : { tools: convertToGeminiTools(input.availableTools) }),
      ...(toolConfig === undefined ? {} : { toolConfig }),
      ...(Object.keys(config).length === 0 ? {} : { generationConfig: config }),
    };
  };

  const mapJson = (value: unknown, context: OutputContext): HarnessModelOutput => {
    const parsed = geminiResponseSchema.safeParse(value);
    if (!parsed.success) return responseMismatchOutput('the Gemini API format', parsed.error.issues, context);
    const response = emptyGeminiResponse();
    addGeminiChunk(response, parsed.data);
    return mapGeminiResponseToOutput(response, context);
  };

  return {
    model,
    contextWindow: transportOptions.contextWindow,
    ...createModelSteps(transport, {
      provider: 'gemini',
      model,
      buildBody,
      mapJson,
      streamHandler: chunkHandler,
      pricing: transportOptions.pricing,
      maxInputBytes: transportOptions.maxInputBytes,
    }),
  };
}

/**
 * Asks for JSON of the schema: `responseMimeType: 'application/json'` and `responseJsonSchema` (full
 * JSON Schema); a `responseSchema` / `responseMimeType` from the `generationConfig` option gives way.
 */
function withOutput(config: Record<string, unknown>, output: HarnessOutputFormat): Record<string, unknown> {
  const { responseSchema: _schema, responseJsonSchema: _jsonSchema, responseMimeType: _mimeType, ...rest } = config;
  return { ...rest, responseMimeType: 'application/json', responseJsonSchema: output.jsonSchema };
}

/** The structured-output request as text, for a step whose model cannot take a response schema with tools. */
function outputInstruction(output: HarnessOutputFormat): string {
  const description = output.description === undefined ? '' : ` (${output.description})`;
  return `When you give your final answer (calling no tool), answer with only a JSON value, no other text, that matches the JSON Schema "${output.name}"${description}: ${JSON.stringify(output.jsonSchema)}`;
}

/** Maps the step's tool choice to `functionCallingConfig` (`AUTO`, `NONE`, `ANY`, or `ANY` with one allowed function). */
function toToolConfig(input: HarnessModelInput): { functionCallingConfig: { mode: 'AUTO' | 'NONE' | 'ANY'; allowedFunctionNames?: string[] } } {
  const choice = readToolChoice(input.toolChoice, input.availableTools);
  if (typeof choice !== 'string') return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  return { functionCallingConfig: { mode: choice === 'required' ? 'ANY' : choice === 'none' ? 'NONE' : 'AUTO' } };
}

function chunkHandler(context: OutputContext): SseStepHandler {
  const response = emptyGeminiResponse();
  return {
    onEvent(event, position) {
      if (event.data.trim() === '') return undefined;
      const parsed = parseStreamPayload(event.data, geminiResponseSchema, context, { item: 'Stream chunk', format: 'the Gemini API format' }, position);
      if (!parsed.ok) return { output: parsed.output };
      const delta = addGeminiChunk(response, parsed.value);
      const end = response.error !== undefined;
      return delta === undefined && !end ? undefined : { ...delta, ...(end ? { end } : {}) };
    },
    finish() {
      // Gemini ends a stream by closing it; the last chunk carries the finish (or block) reason.
      if (response.finishReason === undefined && response.blockReason === undefined && response.error === undefined) {
        return truncatedStreamOutput(context);
      }
      return mapGeminiResponseToOutput(response, context);
    },
  };
}
