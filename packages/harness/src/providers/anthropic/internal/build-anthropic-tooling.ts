import type { HarnessModelInput, HarnessModelOutput } from '../../../core/types/model.js';
import type { HarnessToolChoice } from '../../../shared/types/turn-input.js';
import { UnsupportedInputError } from '../../internal/unsupported-input-error.js';
import type { AnthropicTool, AnthropicToolChoice } from '../anthropic-api-types.js';
import { convertToAnthropicTools } from '../convert-to-anthropic-messages.js';

/** The `tools` and `tool_choice` of a request, and a note for `system` when the answer tool cannot be forced. */
export interface AnthropicTooling {
  tools?: AnthropicTool[];
  tool_choice?: AnthropicToolChoice;
  systemNote?: string;
}

/**
 * Chooses the step's tools and `tool_choice`. Tool choice: `auto` → `auto`, `required` → `any`,
 * `{ name }` → `tool`, `none` → `none` (absent: `auto`); no tools, no choice. A structured `output`
 * is asked for with an answer tool named `output.name` whose `input_schema` is the schema: forced
 * (`tool`) when no other tool is offered or the choice is `none`, otherwise `any` so every step
 * calls a tool (`{ name }` still forces that tool). With extended thinking the API refuses a forced
 * choice: the answer tool is offered with `auto` and `systemNote` tells the model to use it, and a
 * `required` or `{ name }` choice is refused.
 * @throws UnsupportedInputError reason `tool_choice_unsupported` (unknown tool, or forced with thinking),
 *   `output_unsupported` (the answer tool's name is a real tool's).
 */
export function buildAnthropicTooling(input: Pick<HarnessModelInput, 'availableTools' | 'output' | 'toolChoice'>, thinking: boolean): AnthropicTooling {
  const tools = convertToAnthropicTools(input.availableTools);
  const choice = checkToolChoice(input.toolChoice ?? 'auto');
  if (typeof choice === 'object' && !tools.some((tool) => tool.name === choice.name)) {
    throw new UnsupportedInputError('tool_choice_unsupported', `The tool choice names "${choice.name}", which is not offered in this step.`);
  }
  if (thinking && (choice === 'required' || typeof choice === 'object')) {
    throw new UnsupportedInputError(
      'tool_choice_unsupported',
      'The Messages API takes only the tool choices "auto" and "none" with extended thinking (extraBody.thinking).',
    );
  }
  const output = input.output;
  if (output === undefined) return tools.length === 0 ? {} : { tools, tool_choice: toAnthropicToolChoice(choice) };
  if (tools.some((tool) => tool.name === output.name)) {
    throw new UnsupportedInputError('output_unsupported', `The answer tool "${output.name}" would have the name of an offered tool; choose another output name.`);
  }
  const answerTool: AnthropicTool = {
    name: output.name,
    description: ['Give your final answer by calling this tool: its input is the answer.', output.description].filter(Boolean).join(' '),
    input_schema: output.jsonSchema,
  };
  const offered = [...tools, answerTool];
  if (thinking) {
    return {
      tools: offered,
      tool_choice: { type: 'auto' },
      systemNote: `When you have the final answer, give it by calling the tool "${output.name}" with the answer as its input; do not answer in plain text.`,
    };
  }
  if (typeof choice === 'object') return { tools: offered, tool_choice: { type: 'tool', name: choice.name } };
  const force = tools.length === 0 || choice === 'none';
  return { tools: offered, tool_choice: force ? { type: 'tool', name: output.name } : { type: 'any' } };
}

/**
 * Reads a step for the answer tool: a `tool_request` whose only calls are to `outputName` becomes a
 * `final_answer` with the (first) call's input as `value` and its JSON as `text`; when other tools
 * were called too, they are run first and the answer call is dropped (the model answers again in a
 * later step). Any other output is returned as is.
 */
export function readAnthropicAnswerTool(output: HarnessModelOutput, outputName: string | undefined): HarnessModelOutput {
  if (outputName === undefined || output.type !== 'tool_request') return output;
  const answer = output.calls.find((call) => call.name === outputName);
  if (answer === undefined) return output;
  const others = output.calls.filter((call) => call.name !== outputName);
  if (others.length > 0) return { ...output, calls: others };
  return {
    type: 'final_answer',
    text: JSON.stringify(answer.input),
    value: answer.input,
    ...(output.usage === undefined ? {} : { usage: output.usage }),
    ...(output.metadata === undefined ? {} : { metadata: { ...output.metadata, finishReason: 'stop' } }),
    ...(output.reasoning === undefined ? {} : { reasoning: output.reasoning }),
  };
}

/** Whether `extraBody.thinking` turns extended thinking on (`{ type: 'enabled' | 'adaptive', … }`). */
export function isAnthropicThinkingEnabled(thinking: unknown): boolean {
  if (typeof thinking !== 'object' || thinking === null) return false;
  const type = (thinking as { type?: unknown }).type;
  return type !== undefined && type !== 'disabled';
}

function toAnthropicToolChoice(choice: HarnessToolChoice): AnthropicToolChoice {
  if (typeof choice === 'object') return { type: 'tool', name: choice.name };
  if (choice === 'required') return { type: 'any' };
  return { type: choice };
}

function checkToolChoice(choice: unknown): HarnessToolChoice {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return choice;
  if (typeof choice === 'object' && choice !== null && typeof (choice as { name?: unknown }).name === 'string') return { name: (choice as { name: string }).name };
  throw new UnsupportedInputError('tool_choice_unsupported', 'The tool choice must be "auto", "none", "required" or { name }.');
}
