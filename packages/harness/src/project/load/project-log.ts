import type { AgentProjectIssue } from '../agent-project-types.js';

/** Collects the problems (which fail the load) and warnings (kept on the project) of one load. */
export class ProjectLog {
  readonly problems: AgentProjectIssue[] = [];
  readonly warnings: AgentProjectIssue[] = [];

  problem(file: string, message: string, at: { key?: string | undefined; line?: number | undefined } = {}): void {
    this.problems.push(issue(file, message, at));
  }

  warning(file: string, message: string, at: { key?: string | undefined; line?: number | undefined } = {}): void {
    this.warnings.push(issue(file, message, at));
  }
}

function issue(file: string, message: string, at: { key?: string | undefined; line?: number | undefined }): AgentProjectIssue {
  return Object.freeze({
    file,
    ...(at.key === undefined ? {} : { key: at.key }),
    ...(at.line === undefined ? {} : { line: at.line }),
    message,
  });
}
