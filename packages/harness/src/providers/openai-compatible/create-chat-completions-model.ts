import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { HarnessModelInput, HarnessModelOutput } from '../../core/types/model.js';
import { assertEndpointAllowed, joinUrl } from '../http/assert-endpoint-allowed.js';
import { optionalFiniteNumber, optionalPositiveInteger, requiredString, resolveHttpProviderOptions } from '../http/http-provider-options.js';
import { createModelSteps } from '../internal/create-model-steps.js';
import { createProviderTransport } from '../internal/create-provider-transport.js';
import type { SseStepHandler } from '../internal/drive-sse-step.js';
import { truncatedStreamOutput, type OutputContext } from '../internal/transport-failure-output.js';
import { convertToOpenAICompatibleMessages, convertToOpenAICompatibleTools } from './convert-to-openai-compatible-messages.js';
import { openAICompatibleChunkSchema, openAICompatibleResponseSchema } from './openai-compatible-api-types.js';
import type { OpenAICompatibleModel } from './openai-compatible-model.js';
import { DEFAULT_OPENAI_COMPATIBLE_MODEL_OPTIONS, type OpenAICompatibleModelOptions } from './openai-compatible-model-options.js';
import { createOpenAICompatibleStreamAssembler } from './internal/assemble-openai-compatible-stream.js';
import { mapChatMessageToOutput } from './map-chat-message-to-output.js';
import { readOpenAICompatibleResponse } from './read-openai-compatible-response.js';
import { parseStreamPayload, responseMismatchOutput } from '../internal/parse-stream-payload.js';
import { readToolChoice } from '../internal/to-function-tools.js';
import type { OpenAICompatibleResponseFormat, OpenAICompatibleToolChoice } from './openai-compatible-api-types.js';

/** How a wrapper (such as OpenRouter) specialises the chat-completions client. */
export interface ChatCompletionsSettings {
  /** Provider name in error messages, e.g. `OpenRouter`. */
  label: string;
  /** Headers added before the user's. */
  headers?: Record<string, string>;
}

const reservedBodyKeys = ['model', 'messages', 'tools', 'tool_choice', 'stream', 'stream_options'];

/**
 * Builds a chat-completions model adapter from validated options.
 * @throws HarnessConfigError naming the first invalid option.
 */
export function createChatCompletionsModel(options: OpenAICompatibleModelOptions, settings: ChatCompletionsSettings): OpenAICompatibleModel {
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('Options are required.', { field: 'options' });
  const baseUrl = assertEndpointAllowed(options.baseUrl, 'baseUrl', { allowInsecureHttp: options.allowInsecureHttp });
  const model = requiredString(options.model, 'model');
  const temperature = optionalFiniteNumber(options.temperature, 'temperature');
  const maxTokens = optionalPositiveInteger(options.maxTokens, 'maxTokens');
  const extraBody = options.extraBody ?? {};
  if (typeof extraBody !== 'object' || extraBody === null || Array.isArray(extraBody)) {
    throw new HarnessConfigError('extraBody must be an object.', { field: 'extraBody' });
  }
  const reserved = reservedBodyKeys.find((key) => key in extraBody);
  if (reserved !== undefined) throw new HarnessConfigError(`extraBody must not set "${reserved}".`, { field: `extraBody.${reserved}` });
  const defaults = DEFAULT_OPENAI_COMPATIBLE_MODEL_OPTIONS;
  const includeStreamUsage = options.includeStreamUsage ?? defaults.includeStreamUsage;
  const developerRole = options.developerRole ?? defaults.developerRole;
  if (developerRole !== 'system' && developerRole !== 'developer') {
    throw new HarnessConfigError("developerRole must be 'system' or 'developer'.", { field: 'developerRole' });
  }
  const provider = options.providerName ?? defaults.providerName;
  const namedToolChoice = options.namedToolChoice ?? defaults.namedToolChoice;
  if (namedToolChoice !== 'function' && namedToolChoice !== 'required') {
    throw new HarnessConfigError("namedToolChoice must be 'function' or 'required'.", { field: 'namedToolChoice' });
  }
  const transportOptions = resolveHttpProviderOptions(options, baseUrl);
  const transport = createProviderTransport({
    url: joinUrl(baseUrl, '/chat/completions'),
    options: { ...transportOptions, headers: { ...settings.headers, ...transportOptions.headers } },
    authHeaders: (apiKey) => ({ authorization: `Bearer ${apiKey}` }),
    label: settings.label,
  });

  const buildBody = (input: HarnessModelInput, stream: boolean): Record<string, unknown> => {
    const body: Record<string, unknown> = {
      ...extraBody,
      model,
      messages: convertToOpenAICompatibleMessages(input, { developerRole }),
    };
    const choice = readToolChoice(input.toolChoice, input.availableTools);
    if (input.availableTools.length > 0) {
      // A named choice as `'required'` over that tool alone, for servers that read only string choices.
      const named = typeof choice === 'object' && namedToolChoice === 'required' ? choice.name : undefined;
      body.tools = convertToOpenAICompatibleTools(named === undefined ? input.availableTools : input.availableTools.filter((tool) => tool.name === named));
      body.tool_choice = named === undefined ? toChatToolChoice(choice) : 'required';
    }
    // The turn's schema wins over an `extraBody.response_format` (JSON mode) set for other turns.
    if (input.output !== undefined) body.response_format = toResponseFormat(input.output);
    if (temperature !== undefined) body.temperature = temperature;
    if (maxTokens !== undefined) body.max_tokens = maxTokens;
    if (stream) {
      body.stream = true;
      if (includeStreamUsage) body.stream_options = { include_usage: true };
    }
    return body;
  };

  const mapJson = (value: unknown, context: OutputContext): HarnessModelOutput => {
    const parsed = openAICompatibleResponseSchema.safeParse(value);
    if (!parsed.success) return responseMismatchOutput('the chat-completions format', parsed.error.issues, context);
    return mapChatMessageToOutput(readOpenAICompatibleResponse(parsed.data), context);
  };

  return {
    model,
    provider,
    contextWindow: transportOptions.contextWindow,
    ...createModelSteps(transport, {
      provider,
      model,
      buildBody,
      mapJson,
      streamHandler: chunkHandler,
      pricing: transportOptions.pricing,
      maxInputBytes: transportOptions.maxInputBytes,
    }),
  };
}

function toChatToolChoice(choice: ReturnType<typeof readToolChoice>): OpenAICompatibleToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/** `strict` is not set: strict mode accepts only a subset of JSON Schema (all properties required, no extra keywords). */
function toResponseFormat(output: NonNullable<HarnessModelInput['output']>): OpenAICompatibleResponseFormat {
  return {
    type: 'json_schema',
    json_schema: { name: output.name, schema: output.jsonSchema, ...(output.description === undefined ? {} : { description: output.description }) },
  };
}

function chunkHandler(context: OutputContext): SseStepHandler {
  const assembler = createOpenAICompatibleStreamAssembler();
  return {
    onEvent(event, position) {
      const data = event.data.trim();
      if (data === '[DONE]') {
        assembler.markDone();
        return { end: true };
      }
      if (data === '') return undefined;
      const chunk = parseStreamPayload(data, openAICompatibleChunkSchema, context, { item: 'Stream chunk', format: 'the chat-completions format' }, position);
      if (!chunk.ok) return { output: chunk.output };
      const deltas = assembler.push(chunk.value);
      if (assembler.hasError()) return { ...deltas, end: true };
      return deltas.text === undefined && deltas.reasoning === undefined ? undefined : deltas;
    },
    finish() {
      if (!assembler.isComplete() && !assembler.hasError()) {
        return truncatedStreamOutput(context);
      }
      return mapChatMessageToOutput(assembler.result(), context);
    },
  };
}
