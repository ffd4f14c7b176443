import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { describeError } from '../../shared/describe-error.js';
import { normalizeVfsPath } from '@agent-assistant/vfs';

/** Byte and count limits of `loadAgentProject`. A file over its limit is a problem, never truncated. */
export interface AgentProjectLimits {
  /** Largest `agent-project.yaml` / `.json`, in bytes. @default 65536 */
  maxManifestBytes: number;
  /** Largest agent file, in bytes. @default 131072 */
  maxAgentFileBytes: number;
  /** Largest `SKILL.md`, in bytes. @default 131072 */
  maxSkillFileBytes: number;
  /** Largest `AGENTS.md` / `CLAUDE.md`, in bytes. @default 131072 */
  maxInstructionsBytes: number;
  /** Most agents in the manifest. @default 100 */
  maxAgents: number;
  /** Most folders under `skills/`. @default 200 */
  maxSkills: number;
  /** Largest `commands/<name>.md`, in bytes. @default 65536 */
  maxCommandFileBytes: number;
  /** Most entries under `commands/`. @default 200 */
  maxCommands: number;
}

/** The default limits of `loadAgentProject`. Documented defaults quote this object. */
export const DEFAULT_AGENT_PROJECT_LIMITS: Readonly<AgentProjectLimits> = /* @__PURE__ */ Object.freeze({
  maxManifestBytes: 65_536,
  maxAgentFileBytes: 131_072,
  maxSkillFileBytes: 131_072,
  maxInstructionsBytes: 131_072,
  maxAgents: 100,
  maxSkills: 200,
  maxCommandFileBytes: 65_536,
  maxCommands: 200,
});

/** Options of `loadAgentProject`. */
export interface LoadAgentProjectOptions {
  /**
   * The VFS folder that holds the project (its manifest, `agents/`, `skills/`, `commands/`, `AGENTS.md`).
   * @default '/'
   */
  root?: string | undefined;
  /** Byte and count limits; each missing field takes its `DEFAULT_AGENT_PROJECT_LIMITS` value. */
  limits?: Partial<AgentProjectLimits> | undefined;
}

/** Options with every default applied. */
export interface ResolvedLoadOptions {
  readonly root: string;
  readonly limits: Readonly<AgentProjectLimits>;
}

const LIMIT_FIELDS = /* @__PURE__ */ Object.keys(DEFAULT_AGENT_PROJECT_LIMITS) as Array<keyof AgentProjectLimits>;

/** Checks the options; throws `HarnessConfigError` naming the bad field (also for a getter that throws). */
export function resolveLoadOptions(options: unknown): ResolvedLoadOptions {
  try {
    return readLoadOptions(options);
  } catch (error) {
    if (HarnessConfigError.isInstance(error)) throw error;
    throw new HarnessConfigError(`options could not be read: ${describeError(error)}`, { field: 'options', cause: error });
  }
}

function readLoadOptions(options: unknown): ResolvedLoadOptions {
  if (options === undefined) return { root: '/', limits: DEFAULT_AGENT_PROJECT_LIMITS };
  if (typeof options !== 'object' || options === null) throw new HarnessConfigError('options must be an object.', { field: 'options' });
  const { root: givenRoot, limits: givenLimits } = options as LoadAgentProjectOptions;
  let root = '/';
  if (givenRoot !== undefined) {
    try {
      root = normalizeVfsPath(givenRoot);
    } catch (error) {
      throw new HarnessConfigError(`root is not a usable VFS path: ${describeError(error)}`, { field: 'root', cause: error });
    }
  }
  if (givenLimits === undefined) return { root, limits: DEFAULT_AGENT_PROJECT_LIMITS };
  if (typeof givenLimits !== 'object' || givenLimits === null) throw new HarnessConfigError('limits must be an object.', { field: 'limits' });
  const limits = { ...DEFAULT_AGENT_PROJECT_LIMITS };
  for (const field of LIMIT_FIELDS) {
    const value: unknown = givenLimits[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
      throw new HarnessConfigError(`limits.${field} must be a positive integer; got ${typeof value === 'number' ? String(value) : typeof value}.`, { field: `limits.${field}` });
    }
    limits[field] = value;
  }
  return { root, limits: Object.freeze(limits) };
}
