import type { FakeModelReply, FakeModelServer, FakeModelServerOptions, FakeRecordedRequest, FakeServerReply } from './fake-model-server-types.js';
import { renderCommonReply, splitText, startFakeHttpServer, streamReply, type RenderedReply } from './internal/start-fake-http-server.js';

const methodPath = /^\/v1beta\/(?:models|tunedModels)\/[^/]+:(generateContent|streamGenerateContent)$/;
const unknownSignature = 'skip_thought_signature_validator';
const statusNames = new Map<number, string>([
  [400, 'INVALID_ARGUMENT'],
  [401, 'UNAUTHENTICATED'],
  [403, 'PERMISSION_DENIED'],
  [404, 'NOT_FOUND'],
  [429, 'RESOURCE_EXHAUSTED'],
  [500, 'INTERNAL'],
  [503, 'UNAVAILABLE'],
  [504, 'DEADLINE_EXCEEDED'],
]);

/**
 * Starts a loopback server speaking the Gemini API: `POST /v1beta/models/{model}:generateContent`
 * (one `GenerateContentResponse`) and `:streamGenerateContent?alt=sse` (SSE chunks, the last with
 * `finishReason` and usage; without `alt=sse` a JSON array, as Gemini does). Function calls arrive
 * whole, with a `thoughtSignature` on the first one when the reply has `reasoning` (without calls,
 * on the last text part, as Gemini does); `reasoning` itself streams as `thought: true` text parts;
 * a `refusal` reply is a `SAFETY` stop and `blockReason` a blocked prompt. Like the real API it
 * checks the request: every function-call turn must be answered by as many `functionResponse`
 * parts, a call it signed must come back with its signature, `inlineData` needs `mimeType` and
 * `data`, `fileData` needs `mimeType` and `fileUri`, `allowedFunctionNames` only with mode `ANY`
 * and declared functions, `responseJsonSchema` needs `responseMimeType: application/json` (and
 * no `responseSchema`), and — like Gemini 2.5 models — function declarations cannot come with
 * `responseMimeType: application/json` unless the model is a `gemini-3…` one. Errors are `{"error": {code, message, status}}`.
 * `url` ends in `/v1beta`. Node only.
 * @example
 * ```ts
 * const server = await createFakeGeminiServer({ replies: [{ text: 'Hello!' }] });
 * const model = createGeminiModel({ baseUrl: server.url, apiKey: 'test-key', model: 'gemini-2.5-flash' });
 * await server.close();
 * ```
 */
export function createFakeGeminiServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  // Signatures this server issued, by the signed call's name and arguments.
  const signed = new Map<string, string>();
  return startFakeHttpServer(
    {
      path: (path) => methodPath.test(path),
      pathLabel: '/v1beta/models/{model}:generateContent or :streamGenerateContent',
      basePath: '/v1beta',
      render: (reply, request, sequence) => {
        const common = renderCommonReply(reply);
        if (common !== undefined) return common;
        if (reply.type === 'error') return renderError(reply.status, reply.message, reply.retryAfter, reply.headers);
        const model = decodeURIComponent(request.path.slice(request.path.lastIndexOf('/') + 1, request.path.lastIndexOf(':')));
        const problem = checkContents(request, signed, model);
        if (problem !== undefined) return renderError(400, problem);
        const modelReply = reply as FakeModelReply;
        const chunks = buildChunks(modelReply, model, sequence);
        for (const chunk of chunks) {
          for (const part of partsOf(chunk)) {
            if (part.functionCall !== undefined && part.thoughtSignature !== undefined) signed.set(callKey(part.functionCall), part.thoughtSignature);
          }
        }
        const streaming = methodPath.exec(request.path)?.[1] === 'streamGenerateContent';
        if (!streaming) return { kind: 'body', status: 200, headers: { 'content-type': 'application/json; charset=UTF-8', ...modelReply.headers }, body: JSON.stringify(merge(chunks)) };
        if (!new URLSearchParams(request.search).has('alt', 'sse')) {
          return { kind: 'body', status: 200, headers: { 'content-type': 'application/json; charset=UTF-8', ...modelReply.headers }, body: JSON.stringify(chunks) };
        }
        const events = chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`);
        return streamReply(events, { ...modelReply, headers: { 'content-type': 'text/event-stream', ...modelReply.headers } });
      },
      unscripted: (message, status): FakeServerReply => ({ type: 'error', status, message }),
    },
    options.replies ?? [],
    options.port,
  );
}

interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name?: unknown; args?: unknown; id?: string };
  functionResponse?: unknown;
  inlineData?: { mimeType?: unknown; data?: unknown };
  fileData?: { mimeType?: unknown; fileUri?: unknown };
}
type Chunk = Record<string, unknown>;

function callKey(call: { name?: unknown; args?: unknown }): string {
  return JSON.stringify([call.name, call.args ?? {}]);
}

function partsOf(chunk: Chunk): Part[] {
  const candidates = chunk.candidates as { content?: { parts?: Part[] } }[] | undefined;
  return candidates?.[0]?.content?.parts ?? [];
}

function checkContents(request: FakeRecordedRequest, signed: Map<string, string>, model: string): string | undefined {
  const body = request.body as { contents?: unknown } | undefined;
  if (!Array.isArray(body?.contents) || body.contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified';
  const contents = body.contents as { role?: unknown; parts?: Part[] }[];
  const options = checkOptions(request.body as RequestOptions, model);
  if (options !== undefined) return options;
  for (const [index, content] of contents.entries()) {
    for (const [at, part] of (content.parts ?? []).entries()) {
      if (part.inlineData !== undefined && (typeof part.inlineData.mimeType !== 'string' || typeof part.inlineData.data !== 'string')) {
        return `* GenerateContentRequest.contents[${index}].parts[${at}].inline_data: mime_type and data are required`;
      }
      if (part.fileData !== undefined && (typeof part.fileData.mimeType !== 'string' || typeof part.fileData.fileUri !== 'string')) {
        return `* GenerateContentRequest.contents[${index}].parts[${at}].file_data: mime_type and file_uri are required`;
      }
    }
    const calls = (content.parts ?? []).filter((part) => part.functionCall !== undefined);
    if (calls.length === 0) continue;
    const first = calls[0]!;
    const issued = signed.get(callKey(first.functionCall!));
    if (issued !== undefined && first.thoughtSignature !== issued && first.thoughtSignature !== unknownSignature) {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly. Additional data, function call \`${String(first.functionCall!.name)}\`, position ${index + 1}.`;
    }
    const next = contents[index + 1];
    const responses = (next?.parts ?? []).filter((part) => part.functionResponse !== undefined).length;
    if (next !== undefined && responses !== calls.length) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
  }
  return undefined;
}

interface RequestOptions {
  tools?: { functionDeclarations?: { name?: unknown }[] }[];
  toolConfig?: { functionCallingConfig?: { mode?: unknown; allowedFunctionNames?: unknown } };
  generationConfig?: { responseMimeType?: unknown; responseSchema?: unknown; responseJsonSchema?: unknown };
}

function checkOptions(body: RequestOptions, model: string): string | undefined {
  const calling = body.toolConfig?.functionCallingConfig;
  if (calling !== undefined) {
    if (!['AUTO', 'ANY', 'NONE', 'VALIDATED'].includes(calling.mode as string)) return `Invalid value at 'tool_config.function_calling_config.mode' (${String(calling.mode)})`;
    if (calling.allowedFunctionNames !== undefined) {
      if (calling.mode !== 'ANY') return '* GenerateContentRequest.tool_config.function_calling_config.allowed_function_names: only allowed when mode is ANY';
      const declared = new Set((body.tools ?? []).flatMap((tool) => (tool.functionDeclarations ?? []).map((declaration) => declaration.name)));
      const names = Array.isArray(calling.allowedFunctionNames) ? (calling.allowedFunctionNames as unknown[]) : [];
      if (names.some((name) => !declared.has(name))) return '* GenerateContentRequest.tool_config.function_calling_config.allowed_function_names: function not declared';
    }
  }
  const generation = body.generationConfig;
  if (generation?.responseJsonSchema !== undefined) {
    if (generation.responseSchema !== undefined) return '* GenerateContentRequest.generation_config: response_schema and response_json_schema cannot both be set';
    if (generation.responseMimeType !== 'application/json') return '* GenerateContentRequest.generation_config.response_mime_type: must be application/json with response_json_schema';
  }
  const declares = (body.tools ?? []).some((tool) => (tool.functionDeclarations ?? []).length > 0);
  if (declares && generation?.responseMimeType === 'application/json' && !model.startsWith('gemini-3')) {
    return "Function calling with a response mime type: 'application/json' is unsupported";
  }
  return undefined;
}

function usageMetadata(reply: FakeModelReply): Record<string, unknown> {
  const input = reply.usage?.inputTokens ?? 0;
  const output = reply.usage?.outputTokens ?? 0;
  const thoughts = reply.usage?.reasoningTokens;
  return {
    promptTokenCount: input,
    candidatesTokenCount: output - (thoughts ?? 0),
    totalTokenCount: input + output,
    ...(reply.usage?.cachedInputTokens === undefined ? {} : { cachedContentTokenCount: reply.usage.cachedInputTokens }),
    ...(thoughts === undefined ? {} : { thoughtsTokenCount: thoughts }),
  };
}

function buildChunks(reply: FakeModelReply, model: string, sequence: number): Chunk[] {
  const base = { modelVersion: model, responseId: `fake-response-${sequence}` };
  if (reply.error !== undefined) {
    return [{ error: { code: typeof reply.error.code === 'number' ? reply.error.code : 500, message: reply.error.message, status: 'INTERNAL' } }];
  }
  if (reply.blockReason !== undefined) {
    return [{ promptFeedback: { blockReason: reply.blockReason, safetyRatings: [] }, usageMetadata: usageMetadata(reply), ...base }];
  }
  const candidate = (parts: Part[], extra: Record<string, unknown> = {}) => ({ candidates: [{ content: { parts, role: 'model' }, index: 0, ...extra }], ...base });
  const chunks: Chunk[] = [];
  if (reply.reasoning !== undefined) for (const piece of splitText(reply.reasoning, reply.deltaSize ?? 4)) chunks.push(candidate([{ text: piece, thought: true }]));
  if (reply.text !== undefined) for (const piece of splitText(reply.text, reply.deltaSize ?? 4)) chunks.push(candidate([{ text: piece }]));
  const calls = (reply.toolCalls ?? []).map((call, index): Part => {
    return {
      functionCall: { name: call.name, args: call.arguments, ...(call.id === undefined ? {} : { id: call.id }) },
      ...(index === 0 && reply.reasoning !== undefined ? { thoughtSignature: `c2lnX2Zha2Vf${sequence}` } : {}),
    };
  });
  if (calls.length > 0) chunks.push(candidate(calls));
  if (reply.refusal !== undefined) {
    chunks.push({
      candidates: [{ finishReason: 'SAFETY', index: 0, safetyRatings: [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }] }],
      usageMetadata: usageMetadata(reply),
      ...base,
    });
    return chunks;
  }
  // Without calls, Gemini signs the answer on its last part (streamed: an empty text part at the end).
  const textSignature = reply.reasoning !== undefined && calls.length === 0 && reply.text !== undefined ? { thoughtSignature: `dGV4dF9zaWdf${sequence}` } : {};
  chunks.push(candidate([{ text: '', ...textSignature }], { finishReason: reply.finishReason ?? 'STOP' }));
  chunks[chunks.length - 1]!.usageMetadata = usageMetadata(reply);
  return chunks;
}

/** The non-streamed response: every chunk's parts in one candidate, the last chunk's finish and usage. */
function merge(chunks: Chunk[]): Chunk {
  const last = chunks[chunks.length - 1] ?? {};
  if (last.error !== undefined || last.promptFeedback !== undefined) return last;
  const parts: Part[] = [];
  for (const part of chunks.flatMap(partsOf)) {
    const previous = parts[parts.length - 1];
    if (part.text !== undefined && previous?.text !== undefined && (part.thought === true) === (previous.thought === true)) {
      previous.text += part.text;
      if (part.thoughtSignature !== undefined) previous.thoughtSignature = part.thoughtSignature;
    } else parts.push({ ...part });
  }
  const { content: _streamed, ...finish } = (last.candidates as Record<string, unknown>[] | undefined)?.[0] ?? {};
  const content = parts.filter((part) => part.text !== '' || part.thoughtSignature !== undefined);
  return { ...last, candidates: [{ ...(content.length === 0 ? {} : { content: { parts: content, role: 'model' } }), ...finish }] };
}

function renderError(status: number, message = `HTTP ${status}`, retryAfter?: string | number, headers: Record<string, string> = {}): RenderedReply {
  return {
    kind: 'body',
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8', ...(retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) }), ...headers },
    body: JSON.stringify({ error: { code: status, message, status: statusNames.get(status) ?? 'UNKNOWN' } }),
  };
}
