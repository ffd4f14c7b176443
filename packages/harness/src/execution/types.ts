import type { HarnessToolDefinition } from '../shared/types/tools.js';
import type {
  HarnessHistoryMessage,
  HarnessInstructions,
  HarnessPreparedContext,
  HarnessUserMessage,
} from '../shared/types/turn-input.js';
import type { HarnessUsage } from '../shared/types/usage.js';

/** What a turn needs from a backend. Each field is optional; absent means "don't care". */
export interface ExecutionRequirements {
  toolUse?: 'forbidden' | 'allowed' | 'required' | undefined;
  structuredToolCalls?: 'forbidden' | 'preferred' | 'required' | undefined;
  continuationSupport?: 'none' | 'preferred' | 'required' | undefined;
  approvalInterrupts?: 'none' | 'preferred' | 'required' | undefined;
  traceDepth?: 'minimal' | 'standard' | 'detailed' | undefined;
  attachments?: 'forbidden' | 'allowed' | 'required' | undefined;
}

/** What a backend can do, declared honestly. */
export interface ExecutionCapabilities {
  toolUse: 'none' | 'adapter-mediated' | 'native-iterative';
  structuredToolCalls: boolean;
  continuationSupport: 'none' | 'opaque-resume' | 'structured';
  approvalInterrupts: 'none' | 'adapter-mediated' | 'native';
  traceDepth: 'minimal' | 'standard' | 'detailed';
  attachments: boolean;
  /**
   * `true` when the backend gives the model `ExecutionRequest.history` (the conversation before
   * the message); absent or `false`: a request with history is blocked as `history_unsupported`.
   */
  history?: boolean | undefined;
  maxContextStrategy?: 'unknown' | 'small' | 'medium' | 'large' | undefined;
  /**
   * `true` when the backend reports progress through `ExecutionOptions.onEvent` while it works
   * (text deltas, tool activity, plan updates); absent or `false`: the answer arrives at the end.
   */
  streaming?: boolean | undefined;
  /**
   * `true` when the backend accepts user input mid-turn through `ExecutionOptions.steer`;
   * absent or `false`: the harness refuses steering input as `steer_unsupported`.
   */
  steer?: boolean | undefined;
  /**
   * `true` when the engine can be pointed at a model endpoint the caller chooses (an
   * OpenAI-compatible base URL, a gateway, a local model server) through its preset's options or
   * environment; `false` when it only talks to its vendor's service; absent: not stated.
   */
  customProvider?: boolean | undefined;
  /**
   * Which features of an agent project the backend honours (see `createAgentHarness`): a
   * project that asks for one the backend does not honour is refused with
   * `FeatureNotSupportedError` naming it. Absent: only `instructions`.
   */
  agentProject?: ExecutionProjectCapabilities | undefined;
  notes?: string[] | undefined;
}

/**
 * The agent-project features a backend honours. Each absent field is `false`, except
 * `instructions`, which every backend receives in `ExecutionRequest.instructions`.
 */
export interface ExecutionProjectCapabilities {
  /** The system prompt (an agent's prompt and the project's `AGENTS.md`) reaches the model. @default true */
  instructions?: boolean | undefined;
  /** The product's tools in `request.tools` are offered to the model and run. @default false */
  tools?: boolean | undefined;
  /** The `skill` tool is offered and run (skills loaded on demand). @default false */
  skills?: boolean | undefined;
  /** The `task` tool is offered and run (the project's subagents). @default false */
  subagents?: boolean | undefined;
  /**
   * The backend asks `ExecutionOptions.onPermissionRequest` before it answers a permission
   * request of its engine, and follows the verdict. @default false
   */
  permissionRules?: boolean | undefined;
}

/** Codes of negotiation reasons. */
export type ExecutionNegotiationReasonCode =
  | 'tool_use_unsupported'
  | 'structured_tool_calls_unsupported'
  | 'continuation_unsupported'
  | 'approval_interrupt_unsupported'
  | 'attachments_unsupported'
  | 'history_unsupported'
  | 'trace_depth_reduced'
  | 'context_pressure_expected'
  | 'other';

/** One finding of `negotiate`. `blocking` means the backend cannot serve the request. */
export interface ExecutionNegotiationReason {
  code: ExecutionNegotiationReasonCode;
  message: string;
  severity: 'info' | 'warning' | 'blocking';
}

/** The answer of `negotiate`. `supported`: nothing blocks; `degraded`: a warning was raised. */
export interface ExecutionNegotiation {
  supported: boolean;
  degraded: boolean;
  reasons: ExecutionNegotiationReason[];
  effectiveCapabilities: ExecutionCapabilities;
}

/** A tool as described to a backend. */
export type ExecutionToolDescriptor = Omit<HarnessToolDefinition, 'requiresApproval'> & {
  requiresApproval?: boolean | undefined;
};

/** A backend's own resume payload, carried opaquely inside the harness continuation. */
export interface ExecutionContinuation {
  kind?: string | undefined;
  /** For opaque-resume backends: the backend's session id. */
  continuationId?: string | undefined;
  state?: Record<string, unknown> | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** How a paused backend turn was resolved; set on the request `resumeTurn` sends. */
export type ExecutionResumeResolution =
  | { type: 'clarification'; answer: string }
  | { type: 'approval'; decisions: Record<string, 'approved' | 'rejected'> }
  | { type: 'deferred' };

/** One turn, as sent to a backend. Plain JSON. */
export interface ExecutionRequest {
  assistantId: string;
  turnId: string;
  workspaceId?: string | undefined;
  sessionId?: string | undefined;
  userId?: string | undefined;
  threadId?: string | undefined;
  message: HarnessUserMessage;
  instructions: HarnessInstructions;
  context?: HarnessPreparedContext | undefined;
  /**
   * The conversation before `message`, oldest first (`HarnessTurnInput.history`). Only a backend
   * whose capabilities say `history: true` receives it; others are blocked in `negotiate`.
   */
  history?: HarnessHistoryMessage[] | undefined;
  continuation?: ExecutionContinuation | undefined;
  /** Present when the request resumes a paused turn. */
  resume?: ExecutionResumeResolution | undefined;
  tools?: ExecutionToolDescriptor[] | undefined;
  requirements?: ExecutionRequirements | undefined;
  /** Milliseconds the backend has before the harness gives up on it. */
  timeoutMs?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** How far a plan entry has come. */
export type ExecutionPlanEntryStatus = 'pending' | 'in_progress' | 'completed';

/** One entry of an engine's plan (ACP `plan`, codex `turn/plan/updated`, Claude Code `TodoWrite`). */
export interface ExecutionPlanEntry {
  content: string;
  status: ExecutionPlanEntryStatus;
  priority?: 'high' | 'medium' | 'low' | undefined;
}

/** What kind of work a tool activity is, as far as the engine says. */
export type ExecutionToolActivityKind = 'command' | 'edit' | 'read' | 'search' | 'fetch' | 'think' | 'other';

/** One choice an engine offers when it asks for permission. */
export interface ExecutionApprovalOption {
  /** The engine's own id of the option (ACP `optionId`, codex decision name). */
  optionId: string;
  /** Human-readable label. */
  name: string;
  kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always' | 'other';
}

/**
 * Progress a backend reports while a turn runs, through `ExecutionOptions.onEvent`.
 * Informational only: the `ExecutionResult` stays the single source of truth for the outcome
 * (a turn that streams `text_delta`s still returns its whole text in `output.text`).
 *
 * - `text_delta`: a piece of the answer text, in order; normally the pieces concatenate to
 *   `output.text` (an engine may also stream interim text between its tool calls; the harness then
 *   adds nothing at the end and marks `metadata.streamedTextDiverged`).
 * - `tool_activity`: the engine started, updated or finished a tool call of its own
 *   (`toolCallId` pairs the phases; `command` is the shell command for `kind: 'command'`).
 * - `plan_update`: the engine's whole current plan (each event replaces the previous one).
 * - `approval_requested`: the engine asked permission; the turn will end `awaiting_approval`
 *   with the same `approvalKey`.
 */
export type ExecutionStreamEvent =
  | { type: 'text_delta'; text: string }
  | {
      type: 'tool_activity';
      phase: 'started' | 'updated' | 'finished';
      toolCallId: string;
      /** Tool name or title as the engine gives it (`Bash`, `run_shell_command`, `commandExecution`, ...). */
      name: string;
      kind?: ExecutionToolActivityKind | undefined;
      command?: string | undefined;
      /** Set on `finished`. */
      status?: 'succeeded' | 'failed' | 'rejected' | 'cancelled' | undefined;
    }
  | { type: 'plan_update'; entries: ExecutionPlanEntry[] }
  | {
      type: 'approval_requested';
      approvalKey: string;
      /** What the engine wants to do, in its words. */
      title: string;
      toolCallId?: string | undefined;
      kind?: ExecutionToolActivityKind | undefined;
      command?: string | undefined;
      options?: ExecutionApprovalOption[] | undefined;
    };

/** One piece of user input added to a running turn. */
export interface ExecutionSteerMessage {
  /** Unique within the turn; the same id the caller got back from `steer()`. */
  id: string;
  text: string;
}

/**
 * The steering channel a backend with `capabilities.steer` receives in `ExecutionOptions.steer`.
 * The backend calls `receive` once it can take input (e.g. after its turn started); messages sent
 * earlier are handed over at once, in order. `deliver` resolves when the engine accepted the
 * message and rejects (or throws) when it refused it: the caller then learns it was not delivered.
 * Call the returned function when the turn can take no more input; later messages are refused
 * as `turn_finished`, never dropped silently.
 */
export interface ExecutionSteering {
  receive(deliver: (message: ExecutionSteerMessage) => Promise<void> | void): () => void;
}

/** A permission request of an engine, as the host's rules see it (`ExecutionOptions.onPermissionRequest`). */
export interface ExecutionPermissionRequest {
  /** What the engine wants to do, in its words. */
  title: string;
  /** The engine's name for the tool, when it gives one (`Bash`, `execute`, `commandExecution`, ...). */
  toolName?: string | undefined;
  /** The kind of work, as far as the engine says. */
  kind?: ExecutionToolActivityKind | undefined;
  /** The shell command, for `kind: 'command'` when the engine gives it. */
  command?: string | undefined;
}

/**
 * What the host decides for an engine's permission request: answer it approved or rejected in
 * the live engine at once, or `ask` a person (the turn ends `awaiting_approval`, as without a
 * verdict).
 */
export type ExecutionPermissionVerdict = 'approve' | 'reject' | 'ask';

/** Per-call options of `execute`. */
export interface ExecutionOptions {
  /** Aborted when the turn times out or is cancelled; backends must stop their work. */
  signal?: AbortSignal | undefined;
  /**
   * A backend that knows its resume handle before it finishes (e.g. a session id it chose up
   * front) reports it here, so a turn the harness interrupts can still be resumed in that session.
   */
  onContinuation?: ((continuation: ExecutionContinuation) => void) | undefined;
  /**
   * Progress while the turn runs. Backends call it synchronously as things happen; it never
   * throws into the backend (the harness guards it) and it is absent when nobody listens.
   */
  onEvent?: ((event: ExecutionStreamEvent) => void) | undefined;
  /** User input added mid-turn; present only for backends whose capabilities say `steer: true`. */
  steer?: ExecutionSteering | undefined;
  /**
   * The host's rules for the engine's own tools (an agent's permission rules). A backend whose
   * capabilities say `agentProject.permissionRules` calls it for each permission request of its
   * engine before pausing: `approve` and `reject` are answered in the live engine at once (noted
   * in the result's trace) and the turn runs on; `ask` (or a call that throws) pauses the turn as
   * usual. Absent: every request pauses.
   */
  onPermissionRequest?: ((request: ExecutionPermissionRequest) => ExecutionPermissionVerdict) | undefined;
}

/** Error codes a backend reports. `invalid_request`: the request itself failed validation at the adapter's door. */
export type ExecutionErrorCode =
  | 'unsupported_capability'
  | 'invalid_request'
  | 'backend_execution_error'
  | 'invalid_backend_output'
  | 'tool_bridge_error'
  | 'timeout'
  | 'budget_exceeded'
  | 'other';

/** A backend failure. */
export interface ExecutionError {
  code: ExecutionErrorCode;
  message: string;
  retryable?: boolean | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Types of backend trace events. */
export type ExecutionTraceEventType =
  | 'model_started'
  | 'model_completed'
  | 'tool_requested'
  | 'tool_completed'
  | 'approval_wait'
  | 'deferred'
  | 'failure'
  | 'note';

/** What the backend saw, if it reports it. */
export interface ExecutionTrace {
  summary?: {
    startedAt?: string | undefined;
    completedAt?: string | undefined;
    stepCount?: number | undefined;
    toolCallCount?: number | undefined;
    degraded?: boolean | undefined;
  } | undefined;
  events?: { type: ExecutionTraceEventType; at?: string | undefined; data?: Record<string, unknown> | undefined }[] | undefined;
}

/** A backend's answer. Validated by the harness before use. */
export interface ExecutionResult {
  backendId: string;
  status:
    | 'completed'
    | 'needs_clarification'
    | 'awaiting_approval'
    | 'deferred'
    | 'failed'
    | 'unsupported';
  output?: { text?: string | undefined; structured?: Record<string, unknown> | undefined; attachments?: Record<string, unknown>[] | undefined } | undefined;
  continuation?: ExecutionContinuation | undefined;
  approvalRequest?: { reason?: string | undefined; approvalKey?: string | undefined; metadata?: Record<string, unknown> | undefined } | undefined;
  error?: ExecutionError | undefined;
  usage?: HarnessUsage | undefined;
  trace?: ExecutionTrace | undefined;
  degradation?: ExecutionNegotiationReason[] | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** A backend that runs a whole turn (a hosted API, a local CLI, a relay worker). */
export interface ExecutionAdapter {
  readonly backendId: string;
  describeCapabilities(): ExecutionCapabilities;
  negotiate(request: ExecutionRequest): ExecutionNegotiation;
  execute(request: ExecutionRequest, options?: ExecutionOptions): Promise<ExecutionResult>;
}
