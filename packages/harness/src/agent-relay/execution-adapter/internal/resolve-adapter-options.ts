import * as v from '../../../shared/validation/index.js';
import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import type { ExecutionCapabilities } from '../../../execution/types.js';
import { formatIssues } from '../../../shared/schemas/format-issues.js';
import { memo } from '../../../shared/schemas/lazy-schema.js';
import type { AgentRelayExecutionAdapterOptions } from '../agent-relay-execution-adapter-options.js';
import type { RelayTransport } from '../../protocol/relay-transport.js';
import { CONTROL_CHARACTERS_MESSAGE, hasNoControlCharacters } from '../../protocol/control-characters.js';
import { DEFAULT_MAX_BODY_CHARS } from '../../protocol/parse-body.js';
import { describeError } from '../../../shared/describe-error.js';

/** The options with every default applied. */
export interface ResolvedAgentRelayOptions {
  backendId: string;
  workerName: string;
  orchestratorName: string;
  channelId: string;
  cwd: string | undefined;
  timeoutMs: number;
  relay: RelayTransport | undefined;
  capabilities: ExecutionCapabilities;
  maxReplyChars: number;
}

/** What the adapter declares unless told otherwise. */
export const DEFAULT_AGENT_RELAY_CAPABILITIES: ExecutionCapabilities = {
  toolUse: 'none',
  structuredToolCalls: false,
  continuationSupport: 'opaque-resume',
  approvalInterrupts: 'none',
  traceDepth: 'minimal',
  attachments: false,
  history: true,
  maxContextStrategy: 'unknown',
  streaming: true,
  notes: [
    'The turn runs on a remote worker; the harness tools of this process are not offered to it.',
    'Live events stream when the worker sends them (the worker bridge does, for runners that report events); other workers send only the result.',
    "A resume sends the worker's continuation back to it; whether the session continues depends on the worker's runner.",
  ],
};

const MAX_TIMER_MS = 2_147_483_647;

const optionsSchema = /* @__PURE__ */ memo(() => {
  const name = v.string().check(v.trim(), v.minLength(1), v.maxLength(200), v.refine(hasNoControlCharacters, CONTROL_CHARACTERS_MESSAGE));
  return v.object({
    workerName: name,
    orchestratorName: v.optional(name),
    channelId: v.optional(name),
    cwd: v.optional(v.string().check(v.minLength(1))),
    timeoutMs: v.optional(v.int().check(v.positive(), v.lte(MAX_TIMER_MS))),
    backendId: v.optional(name),
    maxReplyChars: v.optional(v.int().check(v.positive())),
    spawnWorker: v.optional(v.looseObject({ enabled: v.boolean() })),
    capabilities: v.optional(
      v.object({
        toolUse: v.optional(v.enum(['none', 'adapter-mediated', 'native-iterative'])),
        structuredToolCalls: v.optional(v.boolean()),
        continuationSupport: v.optional(v.enum(['none', 'opaque-resume', 'structured'])),
        approvalInterrupts: v.optional(v.enum(['none', 'adapter-mediated', 'native'])),
        traceDepth: v.optional(v.enum(['minimal', 'standard', 'detailed'])),
        attachments: v.optional(v.boolean()),
        history: v.optional(v.boolean()),
        maxContextStrategy: v.optional(v.enum(['unknown', 'small', 'medium', 'large'])),
        streaming: v.optional(v.boolean()),
        notes: v.optional(v.array(v.string())),
      }),
    ),
  });
});

const fail = (field: string, message: string): never => {
  throw new HarnessConfigError(`AgentRelayExecutionAdapter ${field}: ${message}`, { field });
};

function checkRelay(relay: unknown): RelayTransport | undefined {
  if (relay === undefined) return undefined;
  if (typeof relay !== 'object' || relay === null) return fail('relay', 'must be an object with send and subscribe functions.');
  const candidate = relay as Partial<RelayTransport>;
  if (typeof candidate.send !== 'function' || typeof candidate.subscribe !== 'function') {
    return fail('relay', 'must be an object with send and subscribe functions.');
  }
  return relay as RelayTransport;
}

/** Validates the options and applies defaults. @throws HarnessConfigError naming the bad field. */
export function resolveAgentRelayOptions(options: AgentRelayExecutionAdapterOptions): ResolvedAgentRelayOptions {
  if (typeof options !== 'object' || (options as unknown) === null) fail('options', 'must be an object.');
  let parsed: ReturnType<ReturnType<typeof optionsSchema>['safeParse']>;
  try {
    parsed = optionsSchema().safeParse(options);
  } catch (error) {
    return fail('options', `could not be read (${describeError(error)}).`);
  }
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.map(String).join('.') ?? 'options';
    fail(field === '' ? 'options' : field, formatIssues(parsed.error.issues));
  }
  const data = parsed.success ? parsed.data : undefined;
  if (data === undefined) return fail('options', 'are invalid.');
  if (data.spawnWorker?.enabled === true) {
    fail(
      'spawnWorker',
      'starting a worker from the adapter is not supported. Run a worker bridge next to the broker instead ' +
        '(the agent-assistant-worker command, or createRelayWorkerBridge from @agent-assistant/harness/worker-bridge).',
    );
  }
  const orchestratorName = data.orchestratorName ?? 'agent-assistant';
  if (orchestratorName === data.workerName) fail('orchestratorName', 'must differ from workerName.');
  const relay = checkRelay(options.relay);
  const { notes, ...capabilities } = data.capabilities ?? {};
  return {
    backendId: data.backendId ?? 'agent-relay',
    workerName: data.workerName,
    orchestratorName,
    channelId: data.channelId ?? 'agent-assistant-execution',
    cwd: data.cwd,
    timeoutMs: data.timeoutMs ?? 120_000,
    relay,
    capabilities: {
      ...DEFAULT_AGENT_RELAY_CAPABILITIES,
      ...capabilities,
      notes: [...(notes ?? DEFAULT_AGENT_RELAY_CAPABILITIES.notes ?? [])],
    },
    maxReplyChars: data.maxReplyChars ?? DEFAULT_MAX_BODY_CHARS,
  };
}
