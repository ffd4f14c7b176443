import * as v from '../../shared/validation/index.js';
import { createToolRegistry, type TypedToolRegistry } from '../create-tool-registry.js';
import { defineTool } from '../define-tool.js';
import { boundedOption } from '../../shared/bounded-option.js';
import { checkedInput, requireState } from '../checked-input.js';
import { ToolExecutionError } from '../tool-execution-error.js';
import { toolOutput } from '../tool-output.js';

/** The state of one plan item. */
export type PlanItemStatus = 'pending' | 'in_progress' | 'completed';

/** One item of the turn's plan. */
export interface PlanItem {
  /** What to do. */
  content: string;
  /** How far it is. */
  status: PlanItemStatus;
}

/** Options of {@link createPlanningToolRegistry}. */
export interface PlanningToolOptions {
  /** Most items a plan may have: 1 to 200. @default 30 */
  maxItems?: number | undefined;
  /** Longest item text, in characters: 1 to 2000. @default 300 */
  maxItemChars?: number | undefined;
}

/** The names of the planning tools. */
export const PLANNING_TOOL_NAMES = ['write_todos', 'read_todos'] as const;

/** The tool state key the plan is kept under. */
const STATE_KEY = 'planning.todos';

/**
 * Creates `write_todos` (replace the turn's todo list) and `read_todos`. The plan is kept in the
 * turn's tool state, so it is sealed into the continuation when the turn pauses and a resumed
 * turn sees it. Its size is bounded by `maxItems`, `maxItemChars` and the tool state limit.
 * @throws HarnessConfigError for out-of-range options.
 * @example
 * ```ts
 * const harness = createHarness({ model, tools: composeToolRegistries(createPlanningToolRegistry(), myTools) });
 * ```
 */
export function createPlanningToolRegistry(options: PlanningToolOptions = {}): TypedToolRegistry {
  const maxItems = boundedOption(options.maxItems, 30, 200, 'maxItems');
  const maxItemChars = boundedOption(options.maxItemChars, 300, 2000, 'maxItemChars');
  const write = defineTool({
    name: 'write_todos',
    description:
      `Write the todo list for this task, replacing the previous one (at most ${String(maxItems)} items). ` +
      'Use it for work of three or more steps: list the steps, mark one in_progress while you work on it and ' +
      'completed when done. The list is kept while the turn is paused and resumed.',
    input: checkedInput(
      {
        properties: {
          todos: {
            type: 'array',
            maxItems,
            items: {
              type: 'object',
              properties: {
                content: { type: 'string', minLength: 1, maxLength: maxItemChars },
                status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
              },
              required: ['content', 'status'],
              additionalProperties: false,
            },
          },
        },
        required: ['todos'],
      },
      () =>
        v.object({
          todos: v
            .array(
              v.object({
                content: v.string().check(v.trim(), v.minLength(1), v.maxLength(maxItemChars)),
                status: v.enum(['pending', 'in_progress', 'completed']),
              }),
            )
            .check(v.maxLength(maxItems)),
        }),
    ),
    execute: ({ todos }, { state, toolName }) => {
      const written = requireState(state, toolName).set(STATE_KEY, todos);
      if (!written.ok) {
        throw new ToolExecutionError(`The plan was not saved: ${written.reason}. Write a shorter plan.`, {
          reason: 'plan_too_large',
          retryable: true,
        });
      }
      return render(todos);
    },
  });
  const read = defineTool({
    name: 'read_todos',
    description: 'Read the current todo list of this task.',
    input: checkedInput({ properties: {} }, () => v.object({})),
    execute: (_input, { state, toolName }) => render(readPlan(requireState(state, toolName).get(STATE_KEY))),
  });
  return createToolRegistry([write, read]);
}

function render(todos: readonly PlanItem[]) {
  const marks: Record<PlanItemStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };
  const text = todos.length === 0 ? 'The todo list is empty.' : todos.map((item, index) => `${String(index + 1)}. ${marks[item.status]} ${item.content}`).join('\n');
  return toolOutput({ text, data: { todos: [...todos] } });
}

/** The stored plan, read defensively (it comes back from a continuation). */
function readPlan(value: unknown): PlanItem[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (item): item is PlanItem =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as PlanItem).content === 'string' &&
      ['pending', 'in_progress', 'completed'].includes((item as PlanItem).status),
  );
}
