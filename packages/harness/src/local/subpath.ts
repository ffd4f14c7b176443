/**
 * @module @agent-assistant/harness/local
 * The local CLI backends (the same ones the main entry exports) and the plumbing under them: the
 * parsers that turn each CLI's output (Claude Code, Codex, Gemini CLI, opencode, pi, Copilot CLI, goose, Cursor) into a result.
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
export { parseCursorOutput, type ParseCursorOutputOptions } from './parse-cursor-output.js';
export { parseGooseOutput, type ParseGooseOutputOptions } from './parse-goose-output.js';
export { parseCopilotOutput, type CopilotDeniedTool, type ParseCopilotOutputOptions } from './parse-copilot-output.js';
export { parseOpenCodeOutput, type ParseOpenCodeOutputOptions } from './parse-opencode-output.js';
export { parsePiOutput, type ParsePiOutputOptions } from './parse-pi-output.js';
