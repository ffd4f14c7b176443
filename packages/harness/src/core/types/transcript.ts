import type { HarnessReasoningPart } from './reasoning.js';
import type { HarnessApprovalRequest } from './approval.js';
import type { HarnessToolCall, HarnessToolResult } from '../../shared/types/tools.js';

/** Why a model output could not be used. */
export type HarnessInvalidOutputKind =
  | 'transient'
  | 'schema_mismatch'
  | 'empty_response'
  | 'missing_message'
  | 'model_refused'
  | 'provider_error'
  /** The request would exceed the model's `maxInputBytes`; nothing was sent. */
  | 'input_too_large';

/** A model step: its output type and, where it has one, the text it said. */
export interface HarnessAssistantStepItem {
  type: 'assistant_step';
  iteration: number;
  outputType: 'final_answer' | 'tool_request' | 'clarification' | 'approval_request' | 'refusal';
  text?: string;
  /** The calls of a `tool_request`, with their real arguments. */
  calls?: HarnessToolCall[];
  /** The step's reasoning, replayed by the provider that produced it. */
  reasoning?: HarnessReasoningPart[];
}

/** A model output the harness could not use. Providers must not replay it as assistant speech. */
export interface HarnessInvalidOutputItem {
  type: 'invalid_output';
  iteration: number;
  kind: HarnessInvalidOutputKind;
  reason: string;
  /** The output's specific cause (`HarnessInvalidOutput.code`), when it named one. */
  code?: string;
  /** The provider's own error code (`HarnessInvalidOutput.providerCode`), when it sent one. */
  providerCode?: string;
}

/** The result of one tool call. */
export interface HarnessToolResultItem {
  type: 'tool_result';
  iteration: number;
  result: HarnessToolResult;
}

/** The question the turn stopped on. */
export interface HarnessClarificationRequestItem {
  type: 'clarification_request';
  iteration: number;
  question: string;
  /**
   * The tool call that asked (through `context.turn.pause`, e.g. the `question` tool). That call
   * runs again on resume and its result carries the answer to the model, so providers do not
   * replay this question and its answer as messages. Absent when the model or a hook asked.
   */
  callId?: string | undefined;
  /** The answers the asker offered, if any. */
  choices?: string[] | undefined;
}

/** The user's answer to a clarification, added on resume. */
export interface HarnessClarificationAnswerItem {
  type: 'clarification_answer';
  iteration: number;
  answer: string;
  /** The tool call the answer goes to, as its result (see {@link HarnessClarificationRequestItem.callId}). */
  callId?: string | undefined;
}

/** An approval the turn stopped on. */
export interface HarnessApprovalRequestItem {
  type: 'approval_request';
  iteration: number;
  request: HarnessApprovalRequest;
}

/** A decision on an approval request, added on resume. */
export interface HarnessApprovalDecisionItem {
  type: 'approval_decision';
  iteration: number;
  requestId: string;
  decision: 'approved' | 'rejected';
}

/**
 * Earlier items of the turn (and the history before its message), folded into a summary to fit the
 * model's context window. Providers replay it as a note from the runtime; it stands first in a
 * compacted transcript. See docs/context.md.
 */
export interface HarnessCompactionItem {
  type: 'compaction';
  iteration: number;
  /** The summary the model sees in place of what it replaced. */
  summary: string;
  /** Transcript items it replaced. */
  replacedItems: number;
  /** History messages it replaced. */
  replacedMessages: number;
}

/** Everything that happened in a turn, in order. */
export type HarnessTranscriptItem =
  | HarnessAssistantStepItem
  | HarnessInvalidOutputItem
  | HarnessToolResultItem
  | HarnessClarificationRequestItem
  | HarnessClarificationAnswerItem
  | HarnessApprovalRequestItem
  | HarnessApprovalDecisionItem
  | HarnessCompactionItem;
