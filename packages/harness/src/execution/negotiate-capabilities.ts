import type {
  ExecutionCapabilities,
  ExecutionNegotiation,
  ExecutionNegotiationReason,
  ExecutionRequest,
} from './types.js';
import type { HarnessHistoryMessage } from '../shared/types/turn-input.js';

const traceOrder = { minimal: 0, standard: 1, detailed: 2 } as const;

/**
 * The standard, honest negotiation: compares a request's needs with declared capabilities.
 * A requirement that cannot be met is `blocking`; a preference that cannot be met is a `warning`
 * and marks the result `degraded`. An adapter's own findings go in `extraReasons`; they count
 * like the standard ones (one that repeats a standard reason's code and severity is dropped).
 */
export function negotiateCapabilities(
  capabilities: ExecutionCapabilities,
  request: ExecutionRequest,
  extraReasons: readonly ExecutionNegotiationReason[] = [],
): ExecutionNegotiation {
  const reasons: ExecutionNegotiationReason[] = [];
  const requirements = request.requirements ?? {};
  const hasTools = (request.tools?.length ?? 0) > 0;
  const block = (code: ExecutionNegotiationReason['code'], message: string) =>
    reasons.push({ code, message, severity: 'blocking' });
  const warn = (code: ExecutionNegotiationReason['code'], message: string) =>
    reasons.push({ code, message, severity: 'warning' });

  if (hasTools && requirements.toolUse === 'forbidden') {
    block('tool_use_unsupported', 'The request carries tools but forbids tool use.');
  } else if ((hasTools || requirements.toolUse === 'required') && capabilities.toolUse === 'none') {
    block('tool_use_unsupported', 'The backend cannot use tools.');
  }
  if (!capabilities.structuredToolCalls) {
    if (requirements.structuredToolCalls === 'required') {
      block('structured_tool_calls_unsupported', 'The backend cannot make structured tool calls.');
    } else if (requirements.structuredToolCalls === 'preferred') {
      warn('structured_tool_calls_unsupported', 'The backend cannot make structured tool calls; continuing without them.');
    }
  }
  if (capabilities.continuationSupport === 'none') {
    if (requirements.continuationSupport === 'required') {
      block('continuation_unsupported', 'The backend cannot resume a paused turn.');
    } else if (requirements.continuationSupport === 'preferred') {
      warn('continuation_unsupported', 'The backend cannot resume a paused turn; continuing without it.');
    }
  }
  if (capabilities.approvalInterrupts === 'none') {
    if (requirements.approvalInterrupts === 'required') {
      block('approval_interrupt_unsupported', 'The backend cannot pause for approval.');
    } else if (requirements.approvalInterrupts === 'preferred') {
      warn('approval_interrupt_unsupported', 'The backend cannot pause for approval; continuing without it.');
    }
  }
  const history: readonly (HarnessHistoryMessage | undefined)[] = Array.isArray(request.history) ? request.history : [];
  const hasAttachments =
    (request.message.attachments?.length ?? 0) > 0 || history.some((entry) => (entry?.attachments?.length ?? 0) > 0);
  if (!capabilities.attachments && (hasAttachments || requirements.attachments === 'required')) {
    block('attachments_unsupported', 'The backend cannot read attachments.');
  }
  if (history.length > 0 && capabilities.history !== true) {
    block('history_unsupported', 'The backend cannot take the conversation history (capabilities.history is not true).');
  }
  if (requirements.traceDepth !== undefined && traceOrder[requirements.traceDepth] > traceOrder[capabilities.traceDepth]) {
    warn('trace_depth_reduced', `The backend reports ${capabilities.traceDepth} traces, not ${requirements.traceDepth}.`);
  }
  for (const reason of extraReasons) {
    if (!reasons.some((known) => known.code === reason.code && known.severity === reason.severity)) reasons.push(reason);
  }
  const supported = !reasons.some((reason) => reason.severity === 'blocking');
  return {
    supported,
    degraded: reasons.some((reason) => reason.severity !== 'blocking'),
    reasons,
    effectiveCapabilities: {
      ...capabilities,
      ...(capabilities.notes === undefined ? {} : { notes: [...capabilities.notes] }),
    },
  };
}
