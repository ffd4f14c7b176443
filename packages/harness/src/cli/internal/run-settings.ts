import * as z from '../../shared/validation/index.js';
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

const text = () => z.string().check(z.minLength(1), z.maxLength(4096));
const count = () => z.int().check(z.gte(1), z.lte(2_147_483_647));

/** Validates run settings read back from a continuation file. */
export const runSettingsSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    project: z.optional(text()),
    agent: z.optional(z.string().check(z.minLength(1), z.maxLength(64))),
    profiles: z.optional(text()),
    profile: z.optional(text()),
    backend: z.optional(text()),
    backendCommand: z.optional(text()),
    model: z.optional(text()),
    workspace: z.optional(text()),
    requireApproval: z.array(z.string().check(z.minLength(1), z.maxLength(256))).check(z.maxLength(64)),
    questionTool: z.optional(z.boolean()),
    maxIterations: z.optional(count()),
    maxToolCalls: z.optional(count()),
    timeoutMs: z.optional(count()),
    budget: z.optional(z.number().check(z.gte(0))),
  }),
);
