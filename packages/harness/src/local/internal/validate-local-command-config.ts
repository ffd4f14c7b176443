import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { ExecutionCapabilities } from '../../execution/types.js';
import { DEFAULT_LOCAL_COMMAND_OPTIONS } from '../local-command-defaults.js';
import type { LocalCommandAdapterConfig } from '../local-command-options.js';
import { isRecord } from '../../shared/is-record.js';

/** A config with every default applied. */
export interface ResolvedLocalCommandConfig extends LocalCommandAdapterConfig {
  timeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  inheritEnv: readonly string[];
  commandLabel: string;
}

const capabilityValues: Record<string, readonly (string | boolean)[]> = {
  toolUse: ['none', 'adapter-mediated', 'native-iterative'],
  structuredToolCalls: [true, false],
  continuationSupport: ['none', 'opaque-resume', 'structured'],
  approvalInterrupts: ['none', 'adapter-mediated', 'native'],
  traceDepth: ['minimal', 'standard', 'detailed'],
  attachments: [true, false],
};

const fail = (field: string, message: string): never => {
  throw new HarnessConfigError(`LocalCommand ${field} ${message}`, { field });
};


function positiveInteger(value: unknown, field: string, allowZero: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    fail(field, `must be ${allowZero ? 'a non-negative' : 'a positive'} integer, got ${String(value)}.`);
  }
  return value as number;
}

function checkCapabilities(value: unknown): ExecutionCapabilities {
  if (!isRecord(value)) return fail('capabilities', 'must be an object.');
  for (const [key, allowed] of Object.entries(capabilityValues)) {
    if (!allowed.includes(value[key] as string | boolean)) {
      fail(`capabilities.${key}`, `must be one of ${allowed.map((item) => JSON.stringify(item)).join(', ')}.`);
    }
  }
  for (const key of ['streaming', 'steer', 'history', 'customProvider'] as const) {
    if (value[key] !== undefined && typeof value[key] !== 'boolean') fail(`capabilities.${key}`, 'must be a boolean when given.');
  }
  const strategies = ['unknown', 'small', 'medium', 'large'];
  if (value['maxContextStrategy'] !== undefined && !strategies.includes(value['maxContextStrategy'] as string)) {
    fail('capabilities.maxContextStrategy', `must be one of ${strategies.join(', ')}.`);
  }
  if (value['notes'] !== undefined && !(Array.isArray(value['notes']) && value['notes'].every((note) => typeof note === 'string'))) {
    fail('capabilities.notes', 'must be an array of strings.');
  }
  return value as unknown as ExecutionCapabilities;
}

/** Checks every option and applies defaults; throws `HarnessConfigError` naming the bad field. */
export function validateLocalCommandConfig(config: LocalCommandAdapterConfig): ResolvedLocalCommandConfig {
  if (!isRecord(config)) fail('config', 'must be an object.');
  if (typeof config.backendId !== 'string' || config.backendId.trim() === '') fail('backendId', 'must be a non-empty string.');
  if (typeof config.command !== 'string' || config.command.trim() === '') fail('command', 'must be a non-empty string.');
  if (config.command.includes('\0')) fail('command', 'must not contain NUL characters.');
  checkCapabilities(config.capabilities);
  for (const name of ['buildArgs', 'parseOutput'] as const) {
    if (typeof config[name] !== 'function') fail(name, 'must be a function.');
  }
  for (const name of ['stdin', 'continuationFor', 'negotiate', 'onStdoutLine', 'streamEvents', 'isRetryableExit', 'spawnFn', 'prepareRun'] as const) {
    if (config[name] !== undefined && typeof config[name] !== 'function') fail(name, 'must be a function when given.');
  }
  if (config.cwd !== undefined && (typeof config.cwd !== 'string' || config.cwd === '')) fail('cwd', 'must be a non-empty string when given.');
  if (config.env !== undefined) {
    if (!isRecord(config.env)) fail('env', 'must be an object of strings.');
    for (const [name, value] of Object.entries(config.env)) {
      if (typeof value !== 'string') fail(`env.${name}`, `must be a string, got ${typeof value}.`);
    }
  }
  if (config.inheritEnv !== undefined && !(Array.isArray(config.inheritEnv) && config.inheritEnv.every((name) => typeof name === 'string'))) {
    fail('inheritEnv', 'must be an array of variable names.');
  }
  if (config.commandLabel !== undefined && typeof config.commandLabel !== 'string') fail('commandLabel', 'must be a string.');
  return {
    ...config,
    capabilities: { ...config.capabilities, ...(config.capabilities.notes === undefined ? {} : { notes: [...config.capabilities.notes] }) },
    timeoutMs: positiveInteger(config.timeoutMs, 'timeoutMs', false) ?? DEFAULT_LOCAL_COMMAND_OPTIONS.timeoutMs,
    killGraceMs: positiveInteger(config.killGraceMs, 'killGraceMs', true) ?? DEFAULT_LOCAL_COMMAND_OPTIONS.killGraceMs,
    maxOutputBytes: positiveInteger(config.maxOutputBytes, 'maxOutputBytes', false) ?? DEFAULT_LOCAL_COMMAND_OPTIONS.maxOutputBytes,
    inheritEnv: [...(config.inheritEnv ?? DEFAULT_LOCAL_COMMAND_OPTIONS.inheritEnv)],
    commandLabel: config.commandLabel ?? `${config.backendId} command`,
    ...(config.env === undefined ? {} : { env: { ...config.env } }),
  };
}
