/**
 * @module @agent-assistant/harness/local
 * The local CLI backends (the same ones the main entry exports) and the plumbing under them: the
 * parsers that turn each CLI's output (Claude Code, Codex, Gemini CLI, opencode) into a result.
 * Node.js only at run time; importing it loads no `node:` module.
 */
export * from './index.js';
export {
  parseClaudeCodeOutput,
  type ClaudeCodeResultObject,
  type ParseClaudeCodeOutputOptions,
} from './parse-claude-code-output.js';
export { parseCodexOutput, type ParseCodexOutputOptions } from './parse-codex-output.js';
export { parseGeminiCliOutput, type ParseGeminiCliOutputOptions } from './parse-gemini-cli-output.js';
export { parseOpenCodeOutput, type ParseOpenCodeOutputOptions } from './parse-opencode-output.js';
