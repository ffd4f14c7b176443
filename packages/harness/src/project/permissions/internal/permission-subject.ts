import { splitCommand } from '../../../tools/bash/split-command.js';
import { PERMISSION_SUBJECT_FIELDS } from '../permission-subject-fields.js';

/**
 * What pattern rules are matched against. `texts[0]` is the whole subject; a compound command
 * (one with shell syntax) adds each part between shell separators.
 */
export interface PermissionSubject {
  readonly texts: readonly string[];
  /** True for a command a shell would read as more than one simple command (or cannot split). */
  readonly compound: boolean;
}

/** Characters that separate the commands of a shell line, or open a nested one. */
const SHELL_SEPARATORS = /[;&|\n\r`()<>{}]/;

/**
 * The subject of a call, or `undefined` when the tool has none or the field is not a string.
 * `input` must be plain data (the caller detaches it).
 */
export function readPermissionSubject(toolName: string, input: Readonly<Record<string, unknown>>): PermissionSubject | undefined {
  const field = PERMISSION_SUBJECT_FIELDS.get(toolName);
  if (field === undefined || !Object.hasOwn(input, field)) return undefined;
  const value = input[field];
  if (typeof value !== 'string') return undefined;
  return field === 'command' ? commandSubject(value) : { texts: [value], compound: false };
}

/**
 * A command as rules see it. A simple command (what the bash tool's allow-list mode would run:
 * no `$`, backticks, `;`, `|`, `&`, redirections, line breaks or unquoted globs) is its words
 * joined by one space, quotes removed (`"git"  push` → `git push`). Anything else is compound:
 * its text with whitespace runs collapsed, plus each part between shell separators, each part
 * read the same way.
 */
function commandSubject(command: string): PermissionSubject {
  const simple = simpleText(command);
  if (simple !== undefined) return { texts: [simple], compound: false };
  const parts = command
    .split(SHELL_SEPARATORS)
    .map((part) => simpleText(part) ?? collapse(part))
    .filter((part) => part !== '');
  return { texts: [collapse(command), ...parts], compound: true };
}

function simpleText(command: string): string | undefined {
  const split = splitCommand(command);
  return split.ok ? split.argv.join(' ') : undefined;
}

function collapse(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
