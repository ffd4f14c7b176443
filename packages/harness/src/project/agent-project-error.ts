import { HarnessError, type HarnessErrorOptions } from '../core/errors/harness-error.js';
import type { AgentProjectIssue } from './agent-project-types.js';
import { hasErrorMarker } from '../core/errors/has-error-marker.js';

const marker = Symbol.for('agent-assistant.error.AgentProjectError');

/** How many problems the message spells out; `problems` always has them all. */
const MESSAGE_PROBLEMS = 20;

/** One problem as `file:line: message` (`file: message` without a line). */
export function formatAgentProjectIssue(issue: AgentProjectIssue): string {
  return `${issue.file}${issue.line === undefined ? '' : `:${issue.line}`}: ${issue.message}`;
}

/**
 * `loadAgentProject` found a project it cannot load: a missing or malformed file, a bad value, a
 * grant naming nothing, a file over its byte limit or leading out of the project. `problems`
 * lists every problem found, each with its file and, when known, key and line.
 * Code `HARNESS_ERR_INVALID_PROJECT`.
 */
export class AgentProjectError extends HarnessError {
  /** Every problem, in the order found (manifest first, then agent files, skills, instructions). */
  readonly problems: readonly AgentProjectIssue[];
  /** The warnings found on the way (unknown keys, ignored files), as a loaded project would carry them. */
  readonly warnings: readonly AgentProjectIssue[];

  constructor(problems: readonly AgentProjectIssue[], options: HarnessErrorOptions & { warnings?: readonly AgentProjectIssue[] | undefined } = {}) {
    const shown = problems.slice(0, MESSAGE_PROBLEMS).map((problem) => `  ${formatAgentProjectIssue(problem)}`);
    const more = problems.length > MESSAGE_PROBLEMS ? [`  … and ${problems.length - MESSAGE_PROBLEMS} more`] : [];
    super(
      'HARNESS_ERR_INVALID_PROJECT',
      `The agent project has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${[...shown, ...more].join('\n')}`,
      options.cause === undefined ? {} : { cause: options.cause },
    );
    Object.defineProperty(this, marker, { value: true });
    this.name = 'AgentProjectError';
    this.problems = Object.freeze(problems.map((problem) => Object.freeze({ ...problem })));
    this.warnings = Object.freeze((options.warnings ?? []).map((warning) => Object.freeze({ ...warning })));
  }

  /** True for any `AgentProjectError`, even one from another copy of this package. */
  static override isInstance(value: unknown): value is AgentProjectError {
    return hasErrorMarker(value, marker);
  }
}
