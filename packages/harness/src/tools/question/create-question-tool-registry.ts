import * as v from '../../shared/validation/index.js';
import { createToolRegistry, type TypedToolRegistry } from '../create-tool-registry.js';
import { defineTool } from '../define-tool.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { checkedInput } from '../checked-input.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { toolOutput } from '../tool-output.js';

/** Options of {@link createQuestionToolRegistry}. */
export interface QuestionToolOptions {
  /** Longest question, in characters: 1 to 4000. @default 1000 */
  maxQuestionChars?: number | undefined;
  /** Most choices a question may offer: 1 to 20. @default 10 */
  maxChoices?: number | undefined;
  /** Longest choice, in characters: 1 to 500. @default 200 */
  maxChoiceChars?: number | undefined;
}

/** The name of the question tool. */
export const QUESTION_TOOL_NAME = 'question';

/**
 * Creates `question` (`{ question, choices? }`), a tool a model on any provider calls to ask the
 * user. The call pauses the turn: it ends `needs_clarification` with the question as
 * `assistantMessage.text`, the choices in `metadata.clarification.choices`, and a continuation.
 * Resume it with `resumeTurn(continuation, { type: 'clarification', answer })`: the call runs again
 * and the answer is its result, which is how the model receives it — once. Only the harness's own
 * model loop can pause; called elsewhere (a backend, the registry on its own) the tool answers
 * with a retryable `question_unsupported` error so the model goes on without asking.
 * Worker-safe.
 * @throws HarnessConfigError for out-of-range options.
 * @example
 * ```ts
 * const harness = createHarness({ model, tools: composeToolRegistries(createQuestionToolRegistry(), myTools) });
 * const paused = await harness.runTurn(input); // outcome 'needs_clarification'
 * const done = await harness.resumeTurn(paused.continuation!, { type: 'clarification', answer: 'Oslo' });
 * ```
 */
export function createQuestionToolRegistry(options: QuestionToolOptions = {}): TypedToolRegistry {
  const maxQuestionChars = boundedOption(options.maxQuestionChars, 1000, 4000, 'maxQuestionChars');
  const maxChoices = boundedOption(options.maxChoices, 10, 20, 'maxChoices');
  const maxChoiceChars = boundedOption(options.maxChoiceChars, 200, 500, 'maxChoiceChars');
  const question = defineTool({
    name: QUESTION_TOOL_NAME,
    description:
      'Ask the user a question and wait for the answer. Use it only when you cannot go on without something only the user ' +
      'knows or decides (a missing detail, a preference, a choice between options); do not ask for what you can find out ' +
      'or safely assume. The turn pauses until the user answers, and the answer comes back as the result of this call. ' +
      `Offer up to ${String(maxChoices)} short choices when the answer is one of a few options; the user may still answer in their own words.`,
    input: checkedInput(
      {
        properties: {
          question: { type: 'string', minLength: 1, maxLength: maxQuestionChars, description: 'The question, complete and self-contained.' },
          choices: {
            type: 'array',
            maxItems: maxChoices,
            items: { type: 'string', minLength: 1, maxLength: maxChoiceChars },
            description: 'Answers to offer, if the answer is one of a few options.',
          },
        },
        required: ['question'],
      },
      () =>
        v.object({
          question: v.string().check(v.trim(), v.minLength(1), v.maxLength(maxQuestionChars)),
          choices: v.optional(v.array(v.string().check(v.trim(), v.minLength(1), v.maxLength(maxChoiceChars))).check(v.maxLength(maxChoices))),
        }),
    ),
    execute: ({ question: text, choices }, { turn }) => {
      // On resume the harness gives this call, and only this call, the user's answer.
      const resolution = turn?.resolution;
      if (resolution?.type === 'clarification') return toolOutput({ text: resolution.answer, data: { question: text, answer: resolution.answer } });
      if (turn === undefined) {
        throw new ToolExecutionError('The user cannot be asked in this turn. Do not call question again: go on with your best assumption and say what you assumed.', {
          reason: 'question_unsupported',
          retryable: true,
        });
      }
      turn.pause({ type: 'clarification', question: text, ...(choices === undefined || choices.length === 0 ? {} : { choices }) });
      return 'Asked the user; waiting for the answer.';
    },
  });
  return createToolRegistry([question]);
}
