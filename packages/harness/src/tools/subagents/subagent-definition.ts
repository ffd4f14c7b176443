import type { HarnessLimits } from '../../core/types/config.js';
import type { HarnessModelAdapter } from '../../core/types/model.js';
import type { ExecutionAdapter } from '../../execution/types.js';
import type { HarnessToolRegistry } from '../../shared/types/tools.js';

/** One subagent the `task` tool can start. */
export interface SubagentDefinition {
  /** The name the model passes as `subagent`: `[A-Za-z0-9_.-]{1,64}` (an agent project's names fit). */
  name: string;
  /** When to use it, written for the model (shown in the `task` tool's description). */
  description: string;
  /** The subagent's system prompt. */
  systemPrompt: string;
  /**
   * Its tools, exactly: names of tools of the registry's `tools` (an allow-list; include `task`
   * to let it start subagents of its own), or a registry of its own. @default no tools
   */
  tools?: readonly string[] | HarnessToolRegistry | undefined;
  /**
   * Limits of its nested turn. Time, budget, model steps and tool calls are never more than what
   * the parent run has left (steps and tool calls at least one).
   * @default the harness defaults, capped by what the parent has left
   */
  limits?: Omit<HarnessLimits, 'maxContinuationBytes'> | undefined;
  /** A model for this subagent only. @default the registry's `model` */
  model?: HarnessModelAdapter | undefined;
}

/** Options of {@link createSubagentToolRegistry}: give `model` or `backend` (or a model per subagent). */
export interface SubagentToolOptions {
  /** The subagents, at least one, with unique names. */
  subagents: readonly SubagentDefinition[];
  /** The model subagents run with, unless one has its own. */
  model?: HarnessModelAdapter | undefined;
  /** An execution backend subagents run on instead of a model. */
  backend?: ExecutionAdapter | undefined;
  /** The registry subagents' allow-lists pick tools from. */
  tools?: HarnessToolRegistry | undefined;
  /** How deeply subagents may nest (a subagent starting a subagent is depth 2): 1 to 5. @default 2 */
  maxDepth?: number | undefined;
}

/** The name of the tool this registry offers. */
export const SUBAGENT_TOOL_NAME = 'task';
