// The protocol plumbing that left the main entry for its folder's subpath in 0.11.x (see
// docs/migrating-from-0.10.md, "Plumbing moved to subpaths"). Each name stays here, deprecated, for
// one minor version: declared (not re-exported) so the bundled declarations keep the @deprecated tag.

import * as providers from './providers/subpath.js';
import * as local from './local/subpath.js';
import * as sessions from './sessions/subpath.js';
import * as tools from './tools/subpath.js';
import * as agentRelay from './agent-relay/protocol/wire.js';

// @agent-assistant/harness/providers
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToAnthropicMessages: typeof providers.convertToAnthropicMessages = providers.convertToAnthropicMessages;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToAnthropicTools: typeof providers.convertToAnthropicTools = providers.convertToAnthropicTools;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const mapAnthropicStopReason: typeof providers.mapAnthropicStopReason = providers.mapAnthropicStopReason;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToGeminiContents: typeof providers.convertToGeminiContents = providers.convertToGeminiContents;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToGeminiTools: typeof providers.convertToGeminiTools = providers.convertToGeminiTools;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const GEMINI_UNKNOWN_THOUGHT_SIGNATURE: typeof providers.GEMINI_UNKNOWN_THOUGHT_SIGNATURE = providers.GEMINI_UNKNOWN_THOUGHT_SIGNATURE;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToOllamaMessages: typeof providers.convertToOllamaMessages = providers.convertToOllamaMessages;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToOllamaTools: typeof providers.convertToOllamaTools = providers.convertToOllamaTools;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToOpenAICompatibleMessages: typeof providers.convertToOpenAICompatibleMessages = providers.convertToOpenAICompatibleMessages;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToOpenAICompatibleTools: typeof providers.convertToOpenAICompatibleTools = providers.convertToOpenAICompatibleTools;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const mapOpenAICompatibleFinishReason: typeof providers.mapOpenAICompatibleFinishReason = providers.mapOpenAICompatibleFinishReason;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToOpenAIResponsesInput: typeof providers.convertToOpenAIResponsesInput = providers.convertToOpenAIResponsesInput;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export const convertToOpenAIResponsesTools: typeof providers.convertToOpenAIResponsesTools = providers.convertToOpenAIResponsesTools;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type AnthropicConversation = providers.AnthropicConversation;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type AnthropicPrompt = providers.AnthropicPrompt;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type AnthropicRequestContentBlock = providers.AnthropicRequestContentBlock;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type AnthropicRequestMessage = providers.AnthropicRequestMessage;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type AnthropicSource = providers.AnthropicSource;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type AnthropicTool = providers.AnthropicTool;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type AnthropicToolChoice = providers.AnthropicToolChoice;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type GeminiConversation = providers.GeminiConversation;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type GeminiPrompt = providers.GeminiPrompt;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type GeminiContent = providers.GeminiContent;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type GeminiFunctionDeclaration = providers.GeminiFunctionDeclaration;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type GeminiPart = providers.GeminiPart;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OllamaConversation = providers.OllamaConversation;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OllamaMessage = providers.OllamaMessage;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OllamaTool = providers.OllamaTool;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OllamaToolCall = providers.OllamaToolCall;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type ConvertToOpenAICompatibleMessagesOptions = providers.ConvertToOpenAICompatibleMessagesOptions;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAICompatibleConversation = providers.OpenAICompatibleConversation;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAICompatibleContentPart = providers.OpenAICompatibleContentPart;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAICompatibleMessage = providers.OpenAICompatibleMessage;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAICompatibleResponseFormat = providers.OpenAICompatibleResponseFormat;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAICompatibleTool = providers.OpenAICompatibleTool;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAICompatibleToolCall = providers.OpenAICompatibleToolCall;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAICompatibleToolChoice = providers.OpenAICompatibleToolChoice;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type ConvertToOpenAIResponsesInputOptions = providers.ConvertToOpenAIResponsesInputOptions;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAIResponsesConversation = providers.OpenAIResponsesConversation;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAIResponsesPrompt = providers.OpenAIResponsesPrompt;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAIResponsesInputContent = providers.OpenAIResponsesInputContent;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAIResponsesInputItem = providers.OpenAIResponsesInputItem;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAIResponsesReasoningItem = providers.OpenAIResponsesReasoningItem;
/** @deprecated Import it from `@agent-assistant/harness/providers`; the main entry drops it in 0.12. */
export type OpenAIResponsesTool = providers.OpenAIResponsesTool;

// @agent-assistant/harness/local
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export const parseClaudeCodeOutput: typeof local.parseClaudeCodeOutput = local.parseClaudeCodeOutput;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export const parseCodexOutput: typeof local.parseCodexOutput = local.parseCodexOutput;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export const parseGeminiCliOutput: typeof local.parseGeminiCliOutput = local.parseGeminiCliOutput;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export const parseOpenCodeOutput: typeof local.parseOpenCodeOutput = local.parseOpenCodeOutput;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export type ClaudeCodeResultObject = local.ClaudeCodeResultObject;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export type ParseClaudeCodeOutputOptions = local.ParseClaudeCodeOutputOptions;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export type ParseCodexOutputOptions = local.ParseCodexOutputOptions;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export type ParseGeminiCliOutputOptions = local.ParseGeminiCliOutputOptions;
/** @deprecated Import it from `@agent-assistant/harness/local`; the main entry drops it in 0.12. */
export type ParseOpenCodeOutputOptions = local.ParseOpenCodeOutputOptions;

// @agent-assistant/harness/sessions
/** @deprecated Import it from `@agent-assistant/harness/sessions`; the main entry drops it in 0.12. */
export const DEFAULT_SESSION_POOL_OPTIONS: typeof sessions.DEFAULT_SESSION_POOL_OPTIONS = sessions.DEFAULT_SESSION_POOL_OPTIONS;
/** @deprecated Import it from `@agent-assistant/harness/sessions`; the main entry drops it in 0.12. */
export const SessionPool: typeof sessions.SessionPool = sessions.SessionPool;
/** @deprecated Import it from `@agent-assistant/harness/sessions`; the main entry drops it in 0.12. */
export type PooledSession = sessions.PooledSession;
/** @deprecated Import it from `@agent-assistant/harness/sessions`; the main entry drops it in 0.12. */
export type SessionLease<S extends sessions.PooledSession> = sessions.SessionLease<S>;
/** @deprecated Import it from `@agent-assistant/harness/sessions`; the main entry drops it in 0.12. */
export type SessionPoolOptions = sessions.SessionPoolOptions;
/** @deprecated Import it from `@agent-assistant/harness/sessions`; the main entry drops it in 0.12. */
export type SessionPool<S extends sessions.PooledSession> = sessions.SessionPool<S>;

// @agent-assistant/harness/tools
/** @deprecated Import it from `@agent-assistant/harness/tools`; the main entry drops it in 0.12. */
export const CITE_SOURCE_PATHS_CLAUSE: typeof tools.CITE_SOURCE_PATHS_CLAUSE = tools.CITE_SOURCE_PATHS_CLAUSE;
/** @deprecated Import it from `@agent-assistant/harness/tools`; the main entry drops it in 0.12. */
export const EMPTY_RESULT_HONESTY_CLAUSE: typeof tools.EMPTY_RESULT_HONESTY_CLAUSE = tools.EMPTY_RESULT_HONESTY_CLAUSE;
/** @deprecated Import it from `@agent-assistant/harness/tools`; the main entry drops it in 0.12. */
export const HALLUCINATION_PREVENTION_CLAUSES: typeof tools.HALLUCINATION_PREVENTION_CLAUSES = tools.HALLUCINATION_PREVENTION_CLAUSES;
/** @deprecated Import it from `@agent-assistant/harness/tools`; the main entry drops it in 0.12. */
export const SURFACE_TOOL_ERRORS_CLAUSE: typeof tools.SURFACE_TOOL_ERRORS_CLAUSE = tools.SURFACE_TOOL_ERRORS_CLAUSE;

// @agent-assistant/harness/agent-relay
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const AGENT_RELAY_EXECUTION_CANCEL_TYPE: typeof agentRelay.AGENT_RELAY_EXECUTION_CANCEL_TYPE = agentRelay.AGENT_RELAY_EXECUTION_CANCEL_TYPE;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const AGENT_RELAY_EXECUTION_EVENT_TYPE: typeof agentRelay.AGENT_RELAY_EXECUTION_EVENT_TYPE = agentRelay.AGENT_RELAY_EXECUTION_EVENT_TYPE;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const AGENT_RELAY_EXECUTION_REQUEST_TYPE: typeof agentRelay.AGENT_RELAY_EXECUTION_REQUEST_TYPE = agentRelay.AGENT_RELAY_EXECUTION_REQUEST_TYPE;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const AGENT_RELAY_EXECUTION_RESULT_TYPE: typeof agentRelay.AGENT_RELAY_EXECUTION_RESULT_TYPE = agentRelay.AGENT_RELAY_EXECUTION_RESULT_TYPE;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const LEGACY_EXECUTION_RESULT_TYPE: typeof agentRelay.LEGACY_EXECUTION_RESULT_TYPE = agentRelay.LEGACY_EXECUTION_RESULT_TYPE;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const MAX_EVENTS_PER_MESSAGE: typeof agentRelay.MAX_EVENTS_PER_MESSAGE = agentRelay.MAX_EVENTS_PER_MESSAGE;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const encodeExecutionRequestMessage: typeof agentRelay.encodeExecutionRequestMessage = agentRelay.encodeExecutionRequestMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const decodeExecutionRequestMessage: typeof agentRelay.decodeExecutionRequestMessage = agentRelay.decodeExecutionRequestMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const encodeExecutionResultMessage: typeof agentRelay.encodeExecutionResultMessage = agentRelay.encodeExecutionResultMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const decodeExecutionResultMessage: typeof agentRelay.decodeExecutionResultMessage = agentRelay.decodeExecutionResultMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const encodeExecutionCancelMessage: typeof agentRelay.encodeExecutionCancelMessage = agentRelay.encodeExecutionCancelMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const decodeExecutionCancelMessage: typeof agentRelay.decodeExecutionCancelMessage = agentRelay.decodeExecutionCancelMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const encodeExecutionEventMessage: typeof agentRelay.encodeExecutionEventMessage = agentRelay.encodeExecutionEventMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const decodeExecutionEventMessage: typeof agentRelay.decodeExecutionEventMessage = agentRelay.decodeExecutionEventMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const decodeWorkerInboundMessage: typeof agentRelay.decodeWorkerInboundMessage = agentRelay.decodeWorkerInboundMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const normalizeWorkerResult: typeof agentRelay.normalizeWorkerResult = agentRelay.normalizeWorkerResult;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export const SHORTHAND_WORKER_BACKEND_ID: typeof agentRelay.SHORTHAND_WORKER_BACKEND_ID = agentRelay.SHORTHAND_WORKER_BACKEND_ID;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type DecodedExecutionEventMessage = agentRelay.DecodedExecutionEventMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type ExecutionEventMessage = agentRelay.ExecutionEventMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type DecodedExecutionResultMessage = agentRelay.DecodedExecutionResultMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type ExecutionCancelMessage = agentRelay.ExecutionCancelMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type ExecutionCancelReason = agentRelay.ExecutionCancelReason;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type ExecutionRequestMessage = agentRelay.ExecutionRequestMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type ExecutionResultMessage = agentRelay.ExecutionResultMessage;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type RelayDecodeFailureReason = agentRelay.RelayDecodeFailureReason;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type RelayDecodeOptions = agentRelay.RelayDecodeOptions;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type RelayDecodeResult<Message> = agentRelay.RelayDecodeResult<Message>;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type RelayReplyTo = agentRelay.RelayReplyTo;
/** @deprecated Import it from `@agent-assistant/harness/agent-relay`; the main entry drops it in 0.12. */
export type WorkerInboundMessage = agentRelay.WorkerInboundMessage;
