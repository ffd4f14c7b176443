import type { ExecutionToolActivityKind } from '../execution/types.js';

const KINDS = new Map<string, ExecutionToolActivityKind>([
  ['bash', 'command'],
  ['shell', 'command'],
  ['run_shell_command', 'command'],
  ['exec_command', 'command'],
  ['shell_command', 'command'],
  ['command_execution', 'command'],
  ['edit', 'edit'],
  ['multiedit', 'edit'],
  ['write', 'edit'],
  ['write_file', 'edit'],
  ['replace', 'edit'],
  ['apply_patch', 'edit'],
  ['file_change', 'edit'],
  ['notebookedit', 'edit'],
  ['read', 'read'],
  ['read_file', 'read'],
  ['read_many_files', 'read'],
  ['list_directory', 'read'],
  ['ls', 'read'],
  ['grep', 'search'],
  ['glob', 'search'],
  ['grep_search', 'search'],
  ['search_file_content', 'search'],
  ['google_web_search', 'search'],
  ['websearch', 'search'],
  ['web_search', 'search'],
  ['webfetch', 'fetch'],
  ['web_fetch', 'fetch'],
]);

/** What kind of work a CLI's built-in tool does, from its name (`Bash`, `run_shell_command`, ...). */
export function toolActivityKind(name: string): ExecutionToolActivityKind {
  return KINDS.get(name.toLowerCase()) ?? 'other';
}
