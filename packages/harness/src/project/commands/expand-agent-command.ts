import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { AgentProject } from '../agent-project-types.js';

/** Where `$ARGUMENTS` goes in a command's template. */
export const COMMAND_ARGUMENTS_PLACEHOLDER = '$ARGUMENTS';

/** A command expanded: the agent that runs it and the turn's message text. */
export interface ExpandedAgentCommand {
  /** The command's `agent`, else the project's default agent: pass it to `createAgentHarness`. */
  readonly agent: string;
  /** The template with every `$ARGUMENTS` replaced by the arguments, as they are. */
  readonly text: string;
}

/**
 * Expands a project's prompt template (`commands/<name>.md`) into a turn's message: every
 * `$ARGUMENTS` in its body becomes `args` (verbatim, nothing else in it is special). A template
 * without `$ARGUMENTS` ignores nothing: given arguments are appended after a blank line.
 * @throws HarnessConfigError for an unknown command or arguments that are not a string.
 * @example
 * ```ts
 * const { agent, text } = expandAgentCommand(project, 'release', 'v1.2.0');
 * await createAgentHarness(project, { agent, ...options }).runTurn({ ...input, message: { ...message, text } });
 * ```
 */
export function expandAgentCommand(project: AgentProject, name: string, args = ''): ExpandedAgentCommand {
  if (typeof args !== 'string') throw new HarnessConfigError('args must be a string: what the user typed after the command.', { field: 'args' });
  const command = typeof name === 'string' ? project.commands.get(name) : undefined;
  if (command === undefined) {
    const known = [...project.commands.keys()].slice(0, 20).join(', ') || 'none';
    throw new HarnessConfigError(`The project has no command ${JSON.stringify(String(name).slice(0, 64))}; its commands: ${known}.`, { field: 'name' });
  }
  const { template } = command;
  const text = template.includes(COMMAND_ARGUMENTS_PLACEHOLDER)
    ? template.split(COMMAND_ARGUMENTS_PLACEHOLDER).join(args)
    : args === ''
      ? template
      : `${template}\n\n${args}`;
  return Object.freeze({ agent: command.agent ?? project.defaultAgent, text });
}
