import { MAX_ANSWER_CHARS, type AnswerText } from '../../execution/answer-cap.js';
import type { ExecutionContinuation, ExecutionResult } from '../../execution/types.js';
import type { HarnessUsage } from '../../shared/types/usage.js';
import { SessionTurnReport } from '../driver/session-turn-report.js';
import type { AcpPromptResult } from './acp-wire.js';

/** How a prompt that ended is reported. */
export interface AcpFinishedPrompt {
  stopReason: string;
  /** The agent's text during this `execute` call (capped). */
  answer: AnswerText;
  /** Titles of the permission requests the host refused in this prompt. */
  rejected: readonly string[];
  usage: AcpPromptResult['usage'] | undefined;
  continuation: ExecutionContinuation;
  label: string;
}

/**
 * The result of a prompt that ended: `end_turn` (and `max_tokens` / `max_turn_requests`, noted) is
 * `completed`; `refusal` is a failed refusal; `cancelled` (the engine cancelled on its own) fails.
 * An engine that ends without text after the host refused a permission (opencode stops there) is
 * `completed` with a sentence saying so, not a failure.
 */
export function finishedResult(report: SessionTurnReport, prompt: AcpFinishedPrompt): ExecutionResult {
  const usage = usageOf(prompt.usage);
  // The continuation also goes into metadata, where `backendContinuationFrom` finds it on a finished turn.
  const common = { continuation: prompt.continuation, metadata: { continuation: prompt.continuation }, ...(usage === undefined ? {} : { usage }) };
  switch (prompt.stopReason) {
    case 'refusal':
      return report.result(
        { status: 'failed', ...common, error: { code: 'other', message: `${prompt.label} refused the request.`, retryable: false, metadata: { refusal: true } } },
        'failure',
      );
    case 'cancelled':
      return report.result(
        { status: 'failed', ...common, error: { code: 'backend_execution_error', message: `${prompt.label} cancelled the prompt.`, retryable: true } },
        'failure',
      );
    default: {
      if (prompt.stopReason !== 'end_turn') report.note(`The engine ended the prompt with stopReason ${JSON.stringify(prompt.stopReason.slice(0, 64))}.`);
      let text = prompt.answer.text();
      const truncated = prompt.answer.truncated;
      if (truncated) report.note(`The answer was cut at ${MAX_ANSWER_CHARS} characters.`);
      if (text === '' && prompt.rejected.length > 0) {
        text = `${prompt.label} stopped after the request was rejected: ${prompt.rejected.at(-1) ?? ''}`;
        report.note('The engine ended the prompt without text after a rejected permission request.');
      }
      return report.result(
        {
          status: 'completed',
          ...common,
          output: { text },
          metadata: { stopReason: prompt.stopReason.slice(0, 64), continuation: prompt.continuation, ...(truncated ? { answerTruncated: true } : {}) },
        },
        'model_completed',
      );
    }
  }
}

function usageOf(usage: AcpPromptResult['usage'] | undefined): HarnessUsage | undefined {
  if (usage === undefined || usage === null) return undefined;
  const count = (value: number | null | undefined) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined);
  const input = count(usage.inputTokens);
  const output = count(usage.outputTokens);
  const cached = count(usage.cachedReadTokens);
  const reasoning = count(usage.thoughtTokens);
  if (input === undefined && output === undefined) return undefined;
  return {
    ...(input === undefined ? {} : { inputTokens: input }),
    ...(output === undefined ? {} : { outputTokens: output }),
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}
