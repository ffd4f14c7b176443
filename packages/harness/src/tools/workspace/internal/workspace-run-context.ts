import type { HarnessToolCall } from '../../../shared/types/tools.js';
import type { ResolvedWorkspaceToolOptions } from '../workspace-tool-options.js';
import type { WorkspaceInput } from './workspace-input.js';

/** What every workspace tool runner receives. */
export interface WorkspaceRunContext {
  call: HarnessToolCall;
  /** The validated input. */
  input: WorkspaceInput;
  options: ResolvedWorkspaceToolOptions;
  signal: AbortSignal;
}

/** The longest snippet shown per search result (characters). */
export const MAX_RESULT_SNIPPET_CHARS = 300;

/**
 * Joins a header and lines, dropping lines from the end (and saying so) when the text would be
 * longer than `maxChars`. Returns the text and how many lines were dropped.
 */
export function fitLines(header: string, lines: readonly string[], maxChars: number): { text: string; dropped: number } {
  let text = header;
  for (let index = 0; index < lines.length; index += 1) {
    const next = `${text}\n${lines[index]}`;
    if (next.length > maxChars) {
      const dropped = lines.length - index;
      return { text: `${text}\n… ${dropped} more not shown (output limit).`, dropped };
    }
    text = next;
  }
  return { text, dropped: 0 };
}
