import { BASH_TOOL_NAMES } from '../../tools/bash/create-bash-tool-registry.js';
import { SUBAGENT_TOOL_NAME } from '../../tools/subagents/subagent-definition.js';
import { SKILL_TOOL_NAME } from '../skills/skill-tool-names.js';

/**
 * The input field whose text permission patterns match, per tool: the bash tool's `command`, the
 * skill tool's `name`, the task tool's `subagent`. A call of another tool has no subject: only a
 * pattern made of `*` alone matches it (give such a tool one action instead).
 */
export const PERMISSION_SUBJECT_FIELDS: ReadonlyMap<string, string> = /* @__PURE__ */ (() =>
  new Map([
    [BASH_TOOL_NAMES[0], 'command'],
    [SKILL_TOOL_NAME, 'name'],
    [SUBAGENT_TOOL_NAME, 'subagent'],
  ]))();
