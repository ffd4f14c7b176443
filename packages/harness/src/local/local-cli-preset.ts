import { HarnessConfigError } from '../core/errors/harness-config-error.js';
import type {
  ExecutionCapabilities,
  ExecutionContinuation,
  ExecutionNegotiationReason,
  ExecutionRequest,
} from '../execution/types.js';
import { DEFAULT_INHERITED_ENV } from './local-command-defaults.js';
import type { LocalCliPresetOptions } from './local-cli-preset-options.js';
import type { LocalCommandAdapterConfig } from './local-command-options.js';

/** What distinguishes one CLI preset from another. */
export interface PresetSpec {
  backendId: string;
  defaultCommand: string;
  label: string;
  /** The CLI's own environment variables, added to `DEFAULT_INHERITED_ENV`. */
  inheritEnv: readonly string[];
  notes: readonly string[];
  /** The preset reports live events (`streamEvents`). @default false */
  streaming?: boolean;
  /** The engine can be pointed at a model endpoint the caller chooses (`capabilities.customProvider`). @default not stated */
  customProvider?: boolean;
}

/** The continuation kind of a preset's sessions, e.g. `claude-code.session`. */
export const sessionKind = (backendId: string) => `${backendId}.session`;

/** Capabilities every CLI preset has: its own tool loop, opaque session resume, nothing else. */
export function presetCapabilities(spec: PresetSpec): ExecutionCapabilities {
  return {
    toolUse: 'native-iterative',
    structuredToolCalls: false,
    continuationSupport: 'opaque-resume',
    approvalInterrupts: 'none',
    traceDepth: 'minimal',
    attachments: false,
    history: false,
    maxContextStrategy: 'large',
    streaming: spec.streaming === true,
    steer: false,
    ...(spec.customProvider === undefined ? {} : { customProvider: spec.customProvider }),
    // The CLI gets the system prompt; it runs its own tools and never asks the host for permission.
    agentProject: { instructions: true },
    notes: [...spec.notes],
  };
}

/** Validates the shared preset options; throws `HarnessConfigError` naming the field. */
export function checkPresetOptions(options: LocalCliPresetOptions, spec: PresetSpec): void {
  const fail = (field: string, message: string): never => {
    throw new HarnessConfigError(`${spec.label} option ${field} ${message}`, { field });
  };
  if (typeof options !== 'object' || options === null) fail('options', 'must be an object.');
  checkFlagValue(options.model, 'model', spec.label);
  if (options.extraArgs !== undefined && !(Array.isArray(options.extraArgs) && options.extraArgs.every((arg) => typeof arg === 'string'))) {
    fail('extraArgs', 'must be an array of strings.');
  }
}

/** Throws `HarnessConfigError` unless `value` is undefined or a non-empty string that cannot be read as a flag. */
export function checkFlagValue(value: unknown, field: string, label: string): string | undefined {
  if (value !== undefined && (typeof value !== 'string' || value.trim() === '' || value.startsWith('-') || value.includes('\0'))) {
    throw new HarnessConfigError(`${label} option ${field} must be a non-empty string that does not start with "-".`, { field });
  }
  return value as string | undefined;
}

/** Throws `HarnessConfigError` unless `value` is undefined or an array of plain, non-flag strings. */
export function checkStringList(value: unknown, field: string, label: string): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.trim() !== '' && !item.startsWith('-'))) {
    throw new HarnessConfigError(`${label} option ${field} must be an array of non-empty strings not starting with "-".`, { field });
  }
  return value as readonly string[];
}

/** Throws `HarnessConfigError` unless `value` is undefined or one of `allowed`. */
export function checkChoice<T extends string>(value: T | undefined, allowed: readonly string[], field: string, label: string): T | undefined {
  if (value !== undefined && !allowed.includes(value)) {
    throw new HarnessConfigError(`${label} option ${field} must be one of ${allowed.join(', ')}.`, { field });
  }
  return value;
}

/** The LocalCommand options a preset passes through unchanged. */
export function presetBase(
  options: LocalCliPresetOptions,
  spec: PresetSpec,
): Pick<LocalCommandAdapterConfig, 'backendId' | 'command' | 'capabilities' | 'commandLabel' | 'inheritEnv' | 'negotiate'> &
  Partial<Pick<LocalCommandAdapterConfig, 'cwd' | 'env' | 'timeoutMs' | 'killGraceMs' | 'maxOutputBytes' | 'spawnFn'>> {
  return {
    backendId: spec.backendId,
    command: options.command ?? spec.defaultCommand,
    capabilities: presetCapabilities(spec),
    commandLabel: spec.label,
    inheritEnv: options.inheritEnv ?? [...DEFAULT_INHERITED_ENV, ...spec.inheritEnv],
    negotiate: (request) => productToolsReasons(request, spec.label),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.killGraceMs === undefined ? {} : { killGraceMs: options.killGraceMs }),
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
    ...(options.spawnFn === undefined ? {} : { spawnFn: options.spawnFn }),
  };
}

/**
 * A CLI runs its own built-in tools; the product's tools in `request.tools` are not bridged to
 * it. Said as a warning, or as a blocking reason when the request requires tool use.
 */
export function productToolsReasons(request: ExecutionRequest, label: string): ExecutionNegotiationReason[] {
  const tools = request.tools ?? [];
  if (tools.length === 0) return [];
  const names = tools.map((tool) => tool.name).join(', ');
  const required = request.requirements?.toolUse === 'required';
  return [
    {
      code: 'tool_use_unsupported',
      message: `${label} uses its own built-in tools; the request's tools (${names}) are not offered to it${required ? ', but the request requires them' : ''}.`,
      severity: required ? 'blocking' : 'warning',
    },
  ];
}

/** A session id that is a plain name: no path separator, no leading dot or dash. */
export const PLAIN_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

/**
 * The session a run continues (`incoming`, when it belongs to this backend) or a new one with
 * `freshId` (when the CLI accepts a caller-chosen session id). Throws when `incoming` belongs to
 * another backend, its id could be read as a flag, or it does not match `pattern` (for an engine
 * that makes a file name of it, e.g. {@link PLAIN_SESSION_ID}).
 */
export function sessionContinuation(
  backendId: string,
  incoming: ExecutionContinuation | undefined,
  freshId?: () => string,
  pattern?: RegExp,
): ExecutionContinuation | undefined {
  const kind = sessionKind(backendId);
  if (incoming?.continuationId !== undefined) {
    if (incoming.kind !== undefined && incoming.kind !== kind) {
      throw new Error(`the continuation is a ${incoming.kind}, not a ${kind}.`);
    }
    checkSessionId(incoming.continuationId);
    if (pattern !== undefined && !pattern.test(incoming.continuationId)) {
      throw new Error(`the session id ${JSON.stringify(incoming.continuationId.slice(0, 80))} is not one ${backendId} makes.`);
    }
    return { ...incoming, kind };
  }
  return freshId === undefined ? undefined : { kind, continuationId: freshId(), state: {} };
}

/** True when the run resumes an existing CLI session. */
export const resumesSession = (incoming: ExecutionContinuation | undefined): incoming is ExecutionContinuation & { continuationId: string } =>
  incoming?.continuationId !== undefined;

function checkSessionId(id: string): void {
  if (id === '' || id.startsWith('-') || /[\s\0]/.test(id)) throw new Error(`the session id ${JSON.stringify(id)} is not valid.`);
}

/** A number from a continuation's `state`, when present and finite. */
export function stateNumber(continuation: ExecutionContinuation | undefined, key: string): number | undefined {
  const value = continuation?.state?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
