import * as v from '../../shared/validation/index.js';
import { lazySchema } from '../../shared/schemas/lazy-schema.js';

/**
 * How a turn is run: what `agent-assistant run` was given, minus the prompt. Saved beside a
 * continuation so `resume` rebuilds the same harness. Paths are absolute; no secrets.
 */
export interface RunSettings {
  /** An agent project folder: its agent's prompt, model, tools, skills and rules run the turn. */
  project?: string | undefined;
  /** The agent of `project`. @default the project's default agent */
  agent?: string | undefined;
  /** Provider profiles file and the profile id or alias (with `project`: the model of agents that name none). */
  profiles?: string | undefined;
  profile?: string | undefined;
  /** A local CLI backend id, its executable and model. */
  backend?: string | undefined;
  backendCommand?: string | undefined;
  model?: string | undefined;
  /** The workspace directory: workspace tools (profiles) or the CLI's working directory (backends). */
  workspace?: string | undefined;
  /** Tools that need approval before they run. */
  requireApproval: string[];
  /** Offer the model the `question` tool (profiles). */
  questionTool?: boolean | undefined;
  maxIterations?: number | undefined;
  maxToolCalls?: number | undefined;
  timeoutMs?: number | undefined;
  budget?: number | undefined;
}

const text = () => v.string().check(v.minLength(1), v.maxLength(4096));
const count = () => v.int().check(v.gte(1), v.lte(2_147_483_647));

/** Validates run settings read back from a continuation file. */
export const runSettingsSchema = /* @__PURE__ */ lazySchema(() =>
  v.strictObject({
    project: v.optional(text()),
    agent: v.optional(v.string().check(v.minLength(1), v.maxLength(64))),
    profiles: v.optional(text()),
    profile: v.optional(text()),
    backend: v.optional(text()),
    backendCommand: v.optional(text()),
    model: v.optional(text()),
    workspace: v.optional(text()),
    requireApproval: v.array(v.string().check(v.minLength(1), v.maxLength(256))).check(v.maxLength(64)),
    questionTool: v.optional(v.boolean()),
    maxIterations: v.optional(count()),
    maxToolCalls: v.optional(count()),
    timeoutMs: v.optional(count()),
    budget: v.optional(v.number().check(v.gte(0))),
  }),
);
