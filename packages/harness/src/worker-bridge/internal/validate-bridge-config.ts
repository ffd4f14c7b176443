import * as v from '../../shared/validation/index.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import type { ExecutionAdapter } from '../../execution/types.js';
import type { RelayTransport } from '../../agent-relay/protocol/relay-transport.js';
import { hasNoControlCharacters } from '../../agent-relay/protocol/control-characters.js';
import { formatIssues } from '../../shared/schemas/format-issues.js';
import { memo } from '../../shared/schemas/lazy-schema.js';
import { createAdapterRunner } from '../adapter-runner.js';
import type { CliRunner } from '../cli-runner.js';
import type { RelayWorkerBridgeConfig, RelayWorkerBridgeEvent } from '../relay-worker-bridge-options.js';

/** The longest delay `setTimeout` honours. */
const MAX_TIMER_MS = 2_147_483_647;

/** The bridge config with defaults applied. */
export interface ResolvedBridgeConfig {
  relay: RelayTransport;
  channelId: string;
  workerName: string;
  runner: CliRunner;
  timeoutMs: number;
  concurrency: number;
  maxQueue: number;
  allowedSenders: ReadonlySet<string> | undefined;
  disposeTimeoutMs: number;
  stopGraceMs: number;
  maxReplyChars: number;
  onEvent: ((event: RelayWorkerBridgeEvent) => void) | undefined;
}

const hasMethods = (value: unknown, names: readonly string[]): boolean =>
  typeof value === 'object' && value !== null && names.every((name) => typeof (value as Record<string, unknown>)[name] === 'function');

const bridgeConfigSchema = /* @__PURE__ */ memo(() => {
  const name = v.string().check(
    v.minLength(1),
    v.maxLength(256),
    v.refine((value) => value.trim() === value && hasNoControlCharacters(value), 'must have no surrounding spaces or control characters'),
  );
  const millis = (min: number) => v.optional(v.int().check(v.gte(min), v.lte(MAX_TIMER_MS)));
  return v.object({
    relay: v.custom<RelayTransport>((value) => hasMethods(value, ['send', 'subscribe']), 'must be a relay transport (send and subscribe)'),
    channelId: name,
    workerName: name,
    runner: v.custom<CliRunner | ExecutionAdapter>(
      (value) => hasMethods(value, ['run']) || hasMethods(value, ['execute']),
      'must be a CliRunner (run) or an ExecutionAdapter (execute)',
    ),
    timeoutMs: millis(1),
    concurrency: v.optional(v.int().check(v.gte(1), v.lte(1000))),
    maxQueue: v.optional(v.int().check(v.gte(0), v.lte(1_000_000))),
    allowedSenders: v.optional(v.array(name)),
    disposeTimeoutMs: millis(0),
    stopGraceMs: millis(0),
    maxReplyChars: v.optional(v.int().check(v.gte(1000))),
    onEvent: v.optional(v.custom<(event: RelayWorkerBridgeEvent) => void>((value) => typeof value === 'function', 'must be a function')),
  });
});

/**
 * Checks the bridge config and applies defaults.
 * @throws HarnessConfigError naming the first invalid field.
 */
export function validateBridgeConfig(config: RelayWorkerBridgeConfig): ResolvedBridgeConfig {
  let parsed: ReturnType<ReturnType<typeof bridgeConfigSchema>['safeParse']>;
  try {
    parsed = bridgeConfigSchema().safeParse(config);
  } catch (error) {
    throw new HarnessConfigError('Worker bridge config could not be read.', { field: 'config', cause: error });
  }
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.map(String).join('.') || 'config';
    throw new HarnessConfigError(`Worker bridge config is invalid: ${formatIssues(parsed.error.issues)}.`, { field });
  }
  const value = parsed.data;
  const runner = value.runner;
  return {
    relay: value.relay,
    channelId: value.channelId,
    workerName: value.workerName,
    runner: 'run' in runner && typeof runner.run === 'function' ? runner : createAdapterRunner(runner as ExecutionAdapter),
    timeoutMs: value.timeoutMs ?? 120_000,
    concurrency: value.concurrency ?? 2,
    maxQueue: value.maxQueue ?? 100,
    allowedSenders: value.allowedSenders === undefined ? undefined : new Set(value.allowedSenders),
    disposeTimeoutMs: value.disposeTimeoutMs ?? 30_000,
    stopGraceMs: value.stopGraceMs ?? 10_000,
    maxReplyChars: value.maxReplyChars ?? 1_000_000,
    onEvent: value.onEvent,
  };
}
