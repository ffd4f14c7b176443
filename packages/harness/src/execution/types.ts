import type { HarnessToolDefinition } from '../shared/types/tools.js';
import type {
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
  maxContextStrategy?: 'unknown' | 'small' | 'medium' | 'large' | undefined;
  notes?: string[] | undefined;
}

/** Codes of negotiation reasons. */
export type ExecutionNegotiationReasonCode =
  | 'tool_use_unsupported'
  | 'structured_tool_calls_unsupported'
  | 'continuation_unsupported'
  | 'approval_interrupt_unsupported'
  | 'attachments_unsupported'
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
  continuation?: ExecutionContinuation | undefined;
  /** Present when the request resumes a paused turn. */
  resume?: ExecutionResumeResolution | undefined;
  tools?: ExecutionToolDescriptor[] | undefined;
  requirements?: ExecutionRequirements | undefined;
  /** Milliseconds the backend has before the harness gives up on it. */
  timeoutMs?: number | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** Per-call options of `execute`. */
export interface ExecutionOptions {
  /** Aborted when the turn times out or is cancelled; backends must stop their work. */
  signal?: AbortSignal | undefined;
  /**
   * A backend that knows its resume handle before it finishes (e.g. a session id it chose up
   * front) reports it here, so a turn the harness interrupts can still be resumed in that session.
   */
  onContinuation?: ((continuation: ExecutionContinuation) => void) | undefined;
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
