import * as v from '../../shared/validation/index.js';
import type { NodeModules } from '../../process/node-types.js';
import { memo } from '../../shared/schemas/lazy-schema.js';
import { ACP_PROTOCOL_VERSION } from '../acp/acp-wire.js';
import { readOmpLine } from '../omp-rpc/omp-rpc-wire.js';
import type { EngineSessionProtocol } from './engine-session-catalog.js';
import { JsonRpcPeer, JsonRpcRemoteError } from '../../process/json-rpc-peer.js';
import { spawnEngine, type EngineExit } from '../../process/spawn-engine.js';

/** What an engine said about itself in its handshake, bounded and validated. */
export interface HandshakeAnswer {
  engineName?: string | undefined;
  version?: string | undefined;
  protocolVersion?: number | undefined;
  capabilities: string[];
}

/** How a handshake went. */
export type HandshakeOutcome =
  | { kind: 'answered'; answer: HandshakeAnswer }
  /** The engine answered, but speaks a protocol version this client does not. */
  | { kind: 'incompatible'; answer: HandshakeAnswer; protocolVersion: number }
  | { kind: 'error_answer'; message: string }
  | { kind: 'malformed' }
  | { kind: 'timed_out'; stderrTail: string }
  | { kind: 'ended'; exit: EngineExit; stderrTail: string };

/** What to start for a handshake. */
export interface HandshakeSpec {
  protocol: EngineSessionProtocol;
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  killGraceMs: number;
}

const CLIENT_NAME = '@agent-assistant/harness';
const CLIENT_VERSION = '1';
const MAX_TEXT = 200;
const MAX_CAPABILITIES = 64;
const MAX_CAPABILITY_DEPTH = 3;
const MAX_LINE_BYTES = 4_194_304 /* 4 MiB */;
const MAX_STDERR_BYTES = 16_384 /* 16 KiB */;
const METHOD_NOT_FOUND = -32601;
const CLAUDE_REQUEST_ID = 'probe_0';

/** The handshake answers, each as loose as the engines send them; built on first use. */
const schemas = /* @__PURE__ */ memo(() => ({
    acp: v.looseObject({
      protocolVersion: v.number(),
      agentCapabilities: v.optional(v.unknown()),
      agentInfo: v.optional(v.nullable(v.looseObject({ name: v.optional(v.unknown()), version: v.optional(v.unknown()) }))),
    }),
    codex: v.looseObject({ userAgent: v.string() }),
    claude: v.looseObject({
      type: v.literal('control_response'),
      response: v.looseObject({
        subtype: v.string(),
        request_id: v.unknown(),
        response: v.optional(v.unknown()),
        error: v.optional(v.unknown()),
      }),
    }),
    claudeInit: v.looseObject({ claude_code_version: v.optional(v.unknown()), capabilities: v.optional(v.unknown()) }),
}));

/**
 * Starts the engine in session mode, performs the protocol's opening handshake (ACP `initialize`,
 * codex app-server `initialize`, Claude Code's stream-json `control_request` initialize, omp's
 * `ready` line) within
 * `timeoutMs`, and stops the engine again (its whole process group). Never throws.
 */
export async function engineHandshake(node: NodeModules, spec: HandshakeSpec): Promise<HandshakeOutcome> {
  let onLine: (line: string) => void = () => undefined;
  const engine = spawnEngine(node, {
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: spec.env,
    maxLineBytes: MAX_LINE_BYTES,
    maxStderrBytes: MAX_STDERR_BYTES,
    killGraceMs: spec.killGraceMs,
    onLine: (line) => onLine(line),
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<HandshakeOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timed_out', stderrTail: engine.stderrTail() }), spec.timeoutMs);
  });
  const ended = engine.exited.then((exit): HandshakeOutcome => ({ kind: 'ended', exit, stderrTail: engine.stderrTail() }));
  let answered: Promise<HandshakeOutcome>;
  if (spec.protocol === 'omp-rpc') {
    // omp speaks first: its `ready` line is the handshake.
    answered = new Promise<HandshakeOutcome>((resolve) => {
      onLine = (line) => {
        if (readOmpLine(line).kind === 'ready') resolve({ kind: 'answered', answer: { engineName: 'omp', capabilities: [] } });
      };
    });
  } else if (spec.protocol === 'claude-stream-json') {
    answered = new Promise<HandshakeOutcome>((resolve) => {
      onLine = (line) => {
        const outcome = readClaudeLine(line);
        if (outcome !== undefined) resolve(outcome);
      };
    });
    engine.write(JSON.stringify({ type: 'control_request', request_id: CLAUDE_REQUEST_ID, request: { subtype: 'initialize', hooks: null } }));
  } else {
    const peer = new JsonRpcPeer({
      jsonrpcField: spec.protocol === 'acp',
      send: (line) => engine.write(line),
      onRequest: (request) => peer.respondError(request.id, METHOD_NOT_FOUND, 'The probe serves no requests.'),
      onNotification: () => undefined,
    });
    onLine = (line) => peer.receive(line);
    void engine.exited.then(() => peer.close('The engine ended.'));
    const params =
      spec.protocol === 'acp'
        ? {
            protocolVersion: ACP_PROTOCOL_VERSION,
            clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
            clientInfo: { name: CLIENT_NAME, version: CLIENT_VERSION },
          }
        : { clientInfo: { name: CLIENT_NAME, title: null, version: CLIENT_VERSION }, capabilities: null };
    answered = peer.request('initialize', params).then(
      (result) => (spec.protocol === 'acp' ? readAcpAnswer(result) : readCodexAnswer(result)),
      (error: unknown): Promise<HandshakeOutcome> =>
        error instanceof JsonRpcRemoteError ? Promise.resolve({ kind: 'error_answer', message: bounded(error.message) }) : ended,
    );
  }
  try {
    return await Promise.race([answered, ended, timedOut]);
  } finally {
    clearTimeout(timer);
    await engine.dispose();
  }
}

function readAcpAnswer(result: unknown): HandshakeOutcome {
  const acp = schemas().acp.safeParse(result);
  if (!acp.success) return { kind: 'malformed' };
  const info = acp.data.agentInfo ?? undefined;
  const answer: HandshakeAnswer = {
    engineName: text(info?.name),
    version: text(info?.version),
    protocolVersion: acp.data.protocolVersion,
    capabilities: flattenCapabilities(acp.data.agentCapabilities),
  };
  if (acp.data.protocolVersion !== ACP_PROTOCOL_VERSION) return { kind: 'incompatible', answer, protocolVersion: acp.data.protocolVersion };
  return { kind: 'answered', answer };
}

function readCodexAnswer(result: unknown): HandshakeOutcome {
  const codex = schemas().codex.safeParse(result);
  if (!codex.success) return { kind: 'malformed' };
  // The user agent is `<our client name>/<codex version> (<os>) …`: it names the client, not codex.
  return { kind: 'answered', answer: { version: text(/\/(\d+\.\d+\.\d+[\w.+-]*)/.exec(codex.data.userAgent)?.[1]), capabilities: [] } };
}

/** The outcome a stdout line of claude settles, or undefined for lines that are not our answer. */
function readClaudeLine(line: string): HandshakeOutcome | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = schemas().claude.safeParse(message);
  if (!parsed.success || parsed.data.response.request_id !== CLAUDE_REQUEST_ID) return undefined;
  const { subtype, response, error } = parsed.data.response;
  if (subtype !== 'success') return { kind: 'error_answer', message: text(error) ?? `control_response ${bounded(subtype)}` };
  const init = schemas().claudeInit.safeParse(response);
  if (!init.success) return { kind: 'malformed' };
  const capabilities = Array.isArray(init.data.capabilities) ? init.data.capabilities.map(capabilityName).filter(isString) : [];
  return { kind: 'answered', answer: { version: text(init.data.claude_code_version), capabilities: capabilities.slice(0, MAX_CAPABILITIES) } };
}

/** A short, printable piece of text an engine sent, or undefined. */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const cleaned = bounded(value).trim();
  return cleaned === '' ? undefined : cleaned;
}

/** `value` without control characters, cut to a bounded length. */
function bounded(value: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
  return printable.length > MAX_TEXT ? `${printable.slice(0, MAX_TEXT)}…` : printable;
}

/** A capability name: word characters, dots, dashes, colons and slashes only, bounded. */
function capabilityName(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '' || value.length > MAX_TEXT || !/^[\w.:/-]+$/.test(value)) return undefined;
  return value;
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}

/**
 * ACP `agentCapabilities` as dotted names of what is on: `true` leaves, and objects that are
 * present but empty (`sessionCapabilities.close: {}` means "supported"). `false` and other values
 * are left out. Bounded in depth and count; names that are not plain words are skipped.
 */
export function flattenCapabilities(value: unknown, prefix = '', depth = 0, into: string[] = []): string[] {
  if (into.length >= MAX_CAPABILITIES) return into;
  if (value === true) {
    if (prefix !== '') into.push(prefix);
    return into;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return into;
  const keys = Object.keys(value);
  if (keys.length === 0 || depth >= MAX_CAPABILITY_DEPTH) {
    if (prefix !== '') into.push(prefix);
    return into;
  }
  for (const key of keys) {
    const name = capabilityName(prefix === '' ? key : `${prefix}.${key}`);
    if (name === undefined) continue;
    flattenCapabilities((value as Record<string, unknown>)[key], name, depth + 1, into);
    if (into.length >= MAX_CAPABILITIES) break;
  }
  return into;
}
