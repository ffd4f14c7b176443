import type { ExecutionPlanEntry, ExecutionStreamEvent, ExecutionToolActivityKind } from '../../execution/types.js';
import type { ClaudeToolUse } from './read-claude-line.js';

const KINDS: ReadonlyMap<string, ExecutionToolActivityKind> = new Map([
  ['Bash', 'command'],
  ['BashOutput', 'command'],
  ['Edit', 'edit'],
  ['MultiEdit', 'edit'],
  ['Write', 'edit'],
  ['NotebookEdit', 'edit'],
  ['Read', 'read'],
  ['Glob', 'search'],
  ['Grep', 'search'],
  ['ToolSearch', 'search'],
  ['WebFetch', 'fetch'],
  ['WebSearch', 'fetch'],
]);

/** What kind of work a Claude Code tool does, by its name. */
export const claudeToolKind = (name: string): ExecutionToolActivityKind => KINDS.get(name) ?? 'other';

/** The shell command of a `Bash` call, when the input has one. */
export function claudeToolCommand(name: string, input: Record<string, unknown>): string | undefined {
  const command = input['command'];
  return claudeToolKind(name) === 'command' && typeof command === 'string' ? command : undefined;
}

/** The `tool_activity` (and, for `TodoWrite`, the `plan_update`) events of a tool call the model made. */
export function toolStartEvents(use: ClaudeToolUse): ExecutionStreamEvent[] {
  const command = claudeToolCommand(use.name, use.input);
  const events: ExecutionStreamEvent[] = [
    {
      type: 'tool_activity',
      phase: 'started',
      toolCallId: use.id,
      name: use.name,
      kind: claudeToolKind(use.name),
      ...(command === undefined ? {} : { command }),
    },
  ];
  const plan = use.name === 'TodoWrite' ? planEntries(use.input['todos']) : undefined;
  if (plan !== undefined) events.push({ type: 'plan_update', entries: plan });
  return events;
}

const STATUSES: readonly string[] = ['pending', 'in_progress', 'completed'];

function planEntries(todos: unknown): ExecutionPlanEntry[] | undefined {
  if (!Array.isArray(todos)) return undefined;
  const entries: ExecutionPlanEntry[] = [];
  for (const todo of todos as unknown[]) {
    if (typeof todo !== 'object' || todo === null) continue;
    const { content, status } = todo as { content?: unknown; status?: unknown };
    if (typeof content !== 'string' || typeof status !== 'string' || !STATUSES.includes(status)) continue;
    entries.push({ content, status: status as ExecutionPlanEntry['status'] });
  }
  return entries;
}
