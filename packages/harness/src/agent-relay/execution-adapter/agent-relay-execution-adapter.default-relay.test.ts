import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionRequest } from '../../execution/types.js';
import { AgentRelayExecutionAdapter } from './agent-relay-execution-adapter.js';

// The default transport (RelayAdapter, loaded on first execute) against a loopback server that
// accepts connections and never answers: a broker stuck in its start-up.

const request: ExecutionRequest = {
  assistantId: 'a',
  turnId: 'turn-1',
  message: { id: 'm', text: 'hi', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 's' },
};

let cwd: string;
let server: ReturnType<typeof createServer>;
const pending = new Set<ServerResponse>();
let onRequest: () => void = () => undefined;

beforeEach(async () => {
  vi.stubEnv('AGENT_RELAY_STATE_DIR', undefined as unknown as string);
  server = createServer((_request, response) => {
    pending.add(response);
    onRequest();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cwd = await mkdtemp(join(tmpdir(), 'relay-stuck-broker-'));
  await mkdir(join(cwd, '.agentworkforce', 'relay'), { recursive: true });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await writeFile(join(cwd, '.agentworkforce', 'relay', 'connection.json'), JSON.stringify({ url, api_key: 'br_test', pid: process.pid }));
});

afterEach(async () => {
  for (const response of pending) response.destroy();
  pending.clear();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(cwd, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('AgentRelayExecutionAdapter with its default RelayAdapter', () => {
  it('ends promptly when the turn is cancelled while the broker does not answer, and shuts down without waiting for it', async () => {
    const controller = new AbortController();
    onRequest = () => controller.abort();
    const adapter = new AgentRelayExecutionAdapter({ cwd, workerName: 'worker' });
    const result = await adapter.execute(request, { signal: controller.signal });
    expect(result).toMatchObject({ status: 'failed', error: { code: 'backend_execution_error', retryable: true } });
    expect(result.error?.message).toContain('cancelled before the request was sent');
    expect(pending.size).toBe(1); // the health check is still unanswered
    await adapter.shutdown();
    expect((await adapter.execute(request)).error?.message).toContain('shut down');
  });
});
