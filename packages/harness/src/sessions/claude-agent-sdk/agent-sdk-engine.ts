import { processOutputRedactor } from '../../process/environment-secrets.js';
import type { EngineExit, EngineProcess } from '../../process/spawn-engine.js';
import { TailBuffer } from '../../process/tail-buffer.js';
import { describeError } from '../../shared/describe-error.js';
import type { AgentSdkModule, AgentSdkQuery } from './load-claude-agent-sdk.js';

/** What one in-process session needs besides the SDK's own options. */
export interface AgentSdkEngineSpec {
  /** The SDK's `query` options, without `canUseTool`, `stderr` and `abortController` (the engine sets those). */
  queryOptions: Record<string, unknown>;
  /** The environment handed to the SDK (its `claude` child's whole environment); its secrets are blanked from stderr. */
  env: Record<string, string>;
  maxLineBytes: number;
  maxStderrBytes: number;
  killGraceMs: number;
}

type PermissionResult = { behavior: 'allow'; updatedInput: Record<string, unknown>; updatedPermissions?: unknown[] } | { behavior: 'deny'; message: string };

/** A queue the SDK reads its user messages from; ends when closed. */
class InputQueue implements AsyncIterable<unknown> {
  private readonly items: unknown[] = [];
  private wake: (() => void) | undefined;
  closed = false;

  push(item: unknown): void {
    this.items.push(item);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<unknown> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) yield item;
      else if (this.closed) return;
      else
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
    }
  }
}

/**
 * Claude in-process through the Agent SDK, shaped as the engine of a stream-json session: the
 * SDK's messages come out as stdout lines (the same JSON), the lines the session writes go in as
 * the SDK's calls — a `user` line is the next message of the streaming input, a `can_use_tool`
 * answer settles the pending `canUseTool` callback (which came out as a `control_request` line),
 * an `interrupt` calls `interrupt()`. `dispose()` ends the input, so the SDK stops its `claude`
 * child; after `killGraceMs` it closes the query.
 */
export function startAgentSdkEngine(sdk: AgentSdkModule, spec: AgentSdkEngineSpec, onLine: (line: string) => void): EngineProcess {
  const input = new InputQueue();
  const abortController = new AbortController();
  const stderr = new TailBuffer(spec.maxStderrBytes);
  const redactor = processOutputRedactor(spec.env);
  const pending = new Map<string, (result: PermissionResult) => void>();
  let counter = 0;
  let alive = true;
  let disposing = false;
  let resolveExited!: (exit: EngineExit) => void;
  const exited = new Promise<EngineExit>((resolve) => {
    resolveExited = resolve;
  });
  const encoder = new TextEncoder();
  const finish = (exit: EngineExit) => {
    if (!alive) return;
    alive = false;
    for (const settle of pending.values()) settle({ behavior: 'deny', message: 'The session ended.' });
    pending.clear();
    resolveExited(disposing && exit.kind === 'exited' ? { kind: 'disposed', exitCode: exit.exitCode, exitSignal: null } : exit);
  };
  const emit = (line: string) => {
    try {
      onLine(line);
    } catch {
      // A faulty listener never breaks the engine.
    }
  };

  const canUseTool = (toolName: string, toolInput: Record<string, unknown>, extra: Record<string, unknown>): Promise<PermissionResult> => {
    if (!alive) return Promise.resolve({ behavior: 'deny', message: 'The session ended.' });
    counter += 1;
    const requestId = `sdk_permission_${counter}`;
    const answered = new Promise<PermissionResult>((resolve) => pending.set(requestId, resolve));
    const signal = extra['signal'];
    if (signal instanceof AbortSignal) signal.addEventListener('abort', () => pending.get(requestId)?.({ behavior: 'deny', message: 'The request was cancelled.' }), { once: true });
    const request = {
      subtype: 'can_use_tool',
      tool_name: toolName,
      input: toolInput,
      ...(typeof extra['toolUseID'] === 'string' ? { tool_use_id: extra['toolUseID'] } : {}),
      ...(typeof extra['description'] === 'string' ? { description: extra['description'] } : {}),
      ...(typeof extra['blockedPath'] === 'string' ? { blocked_path: extra['blockedPath'] } : {}),
      ...(Array.isArray(extra['suggestions']) ? { permission_suggestions: extra['suggestions'] } : {}),
    };
    let line: string;
    try {
      line = JSON.stringify({ type: 'control_request', request_id: requestId, request });
    } catch {
      // An input JSON cannot carry (a BigInt, a cycle) is refused, not passed on unseen.
      pending.delete(requestId);
      return Promise.resolve({ behavior: 'deny', message: 'The tool input cannot be shown to the host.' });
    }
    emit(line);
    return answered.finally(() => pending.delete(requestId));
  };

  let query: AgentSdkQuery | undefined;
  try {
    query = sdk.query({
      prompt: input,
      options: {
        ...spec.queryOptions,
        env: spec.env,
        abortController,
        canUseTool,
        stderr: (text: string) => stderr.push(encoder.encode(String(text))),
      },
    });
  } catch (error) {
    // The SDK throws at once when its platform package (the `claude` binary) is missing.
    finish({ kind: 'spawn_failed', message: describeError(error, 500) });
    return engineOf();
  }
  const running = query;
  void (async () => {
    try {
      for await (const message of running) {
        const line = JSON.stringify(message);
        // UTF-8 takes at most 3 bytes per UTF-16 unit: only a long line is encoded to be measured.
        if (line.length * 3 > spec.maxLineBytes && encoder.encode(line).byteLength > spec.maxLineBytes) {
          finish({ kind: 'line_too_long', maxLineBytes: spec.maxLineBytes });
          abortController.abort();
          return;
        }
        emit(line);
      }
      finish({ kind: 'exited', exitCode: 0, exitSignal: null });
    } catch (error) {
      // The SDK ends its iterator with an error after an error result (an HTTP 400) or when its child fails.
      stderr.push(encoder.encode(`\n${describeError(error, 1_000)}`));
      finish({ kind: 'exited', exitCode: 1, exitSignal: null });
    }
  })();

  function write(line: string): boolean {
    if (!alive || input.closed) return false;
    let message: { type?: unknown; request?: { subtype?: unknown }; response?: { request_id?: unknown; subtype?: unknown; response?: PermissionResult } };
    try {
      message = JSON.parse(line) as typeof message;
    } catch {
      return false;
    }
    if (message.type === 'user') input.push(message);
    else if (message.type === 'control_request' && message.request?.subtype === 'interrupt') void running.interrupt().catch(() => undefined);
    else if (message.type === 'control_response') {
      const id = message.response?.request_id;
      const settle = typeof id === 'string' ? pending.get(id) : undefined;
      const answer = message.response?.response;
      if (settle !== undefined) settle(answer ?? { behavior: 'deny', message: 'The host gave no answer.' });
    }
    return true;
  }

  function engineOf(): EngineProcess {
    return {
      pid: undefined,
      get alive() {
        return alive;
      },
      write,
      stderrTail: () => redactor.text(stderr.text(), { start: stderr.dropped }),
      exited,
      dispose(): Promise<EngineExit> {
        if (alive && !disposing) {
          disposing = true;
          input.close();
          const timer = setTimeout(() => {
            query?.close?.();
            abortController.abort();
          }, Math.max(1, spec.killGraceMs));
          void exited.then(() => clearTimeout(timer));
        }
        return exited;
      },
    };
  }
  return engineOf();
}
