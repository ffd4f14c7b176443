import * as v from '../../../shared/validation/index.js';
import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import { memo } from '../../../shared/schemas/lazy-schema.js';
import type { RelayNodeModules } from './relay-node-modules.js';

/** Where to reach a broker. `source` is `options` or the path of the connection file used. */
export interface RelayConnection {
  baseUrl: string;
  apiKey: string | undefined;
  source: string;
}

/** What discovery looks at. */
export interface RelayDiscoveryInput {
  cwd?: string | undefined;
  baseUrl?: string | undefined;
  apiKey?: string | undefined;
  stateDir?: string | undefined;
}

const connectionFileSchema = /* @__PURE__ */ memo(() =>
  v.object({
    url: v.optional(v.string()),
    port: v.optional(v.int().check(v.positive(), v.lte(65_535))),
    api_key: v.optional(v.string()),
    apiKey: v.optional(v.string()),
    pid: v.optional(v.int()),
  }),
);

const MAX_FILE_CHARS = 64_000;

/** `url` as an http(s) base URL without a trailing slash, or `undefined`. */
export function normalizeBaseUrl(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    if (parsed.username !== '' || parsed.password !== '') return undefined;
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}

/** The connection files in discovery order. */
export function connectionFileCandidates(node: RelayNodeModules, input: RelayDiscoveryInput): string[] {
  const cwd = node.resolve(input.cwd ?? node.cwd());
  const stateDir = input.stateDir ?? node.env['AGENT_RELAY_STATE_DIR'];
  return [
    ...(stateDir === undefined || stateDir === '' ? [] : [node.join(stateDir, 'connection.json')]),
    node.join(cwd, '.agentworkforce', 'relay', 'connection.json'),
    node.join(cwd, '.agent-relay', 'connection.json'),
  ];
}

async function readCandidate(node: RelayNodeModules, path: string): Promise<RelayConnection | string> {
  let text: string;
  try {
    text = await node.readFile(path, 'utf8');
  } catch (error) {
    return (error as { code?: string }).code === 'ENOENT' ? 'not found' : `unreadable (${(error as { code?: string }).code ?? 'error'})`;
  }
  if (text.length > MAX_FILE_CHARS) return 'too large';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not JSON';
  }
  const parsed = connectionFileSchema().safeParse(value);
  if (!parsed.success) return 'not a connection file';
  const file = parsed.data;
  const baseUrl = file.url !== undefined ? normalizeBaseUrl(file.url) : file.port !== undefined ? `http://127.0.0.1:${file.port}` : undefined;
  if (baseUrl === undefined) return 'no usable url or port';
  if (file.pid !== undefined && !node.isAlive(file.pid)) return `stale (broker pid ${file.pid} is not running)`;
  return { baseUrl, apiKey: file.api_key ?? file.apiKey, source: path };
}

/**
 * Finds the broker: explicit `baseUrl`/`apiKey`, else `$AGENT_RELAY_STATE_DIR/connection.json`,
 * else `{cwd}/.agentworkforce/relay/connection.json`, else the legacy
 * `{cwd}/.agent-relay/connection.json`. A file whose broker pid is dead is skipped as stale.
 * @throws HarnessConfigError listing every path tried and why it was not used.
 */
export async function discoverRelayConnection(node: RelayNodeModules, input: RelayDiscoveryInput): Promise<RelayConnection> {
  if (input.baseUrl !== undefined) {
    const baseUrl = normalizeBaseUrl(input.baseUrl);
    if (baseUrl === undefined) throw new HarnessConfigError('RelayAdapter baseUrl must be an http(s) URL without credentials.', { field: 'baseUrl' });
    return { baseUrl, apiKey: input.apiKey, source: 'options' };
  }
  const tried: string[] = [];
  for (const path of connectionFileCandidates(node, input)) {
    const found = await readCandidate(node, path);
    if (typeof found !== 'string') return { ...found, ...(input.apiKey === undefined ? {} : { apiKey: input.apiKey }) };
    tried.push(`${path} (${found})`);
  }
  throw new HarnessConfigError(
    `No Agent Relay broker found. Tried:\n${tried.map((line) => `  - ${line}`).join('\n')}\n` +
      'Start a broker in that directory (agent-relay up), pass baseUrl and apiKey, or set startBroker: true.',
    { field: 'cwd' },
  );
}
