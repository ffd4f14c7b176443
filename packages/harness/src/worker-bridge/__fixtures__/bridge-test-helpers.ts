// Helpers for the worker bridge tests: requests on the wire, spawn observation, process checks.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import type { ExecutionRequest } from '../../execution/types.js';
import type { LocalSpawnFn } from '../../local/local-spawn.js';
import { encodeExecutionRequestMessage } from '../../agent-relay/protocol/execution-request-message.js';
import type { ExecutionRequestMessage } from '../../agent-relay/protocol/message-types.js';

/** An execution request with `text` as the user message and every prompt part filled in. */
export function fullRequest(text: string, extra: Partial<ExecutionRequest> = {}): ExecutionRequest {
  return {
    assistantId: 'assistant-byoh',
    turnId: 'turn-1',
    message: { id: 'message-1', text, receivedAt: '2026-01-01T00:00:00.000Z' },
    instructions: { systemPrompt: 'SYSTEM: be brief.', developerPrompt: 'DEVELOPER: answer in English.' },
    context: {
      blocks: [{ id: 'b1', label: 'Ticket', content: 'CONTEXT: the build is red.', source: 'jira' }],
      structured: { repo: 'STRUCTURED-repo' },
    },
    ...extra,
  };
}

let sequence = 0;

/** A request message body as an orchestrator would send it. */
export function requestBody(request: ExecutionRequest, extra: Partial<Omit<ExecutionRequestMessage, 'type' | 'request'>> = {}): {
  requestId: string;
  text: string;
} {
  const requestId = extra.requestId ?? `request-${++sequence}`;
  const text = encodeExecutionRequestMessage({
    requestId,
    turnId: request.turnId,
    threadId: request.threadId ?? request.turnId,
    replyTo: { agentId: 'orchestrator' },
    sentAt: new Date().toISOString(),
    ...extra,
    request,
  });
  return { requestId, text };
}

/** A spawnFn that starts the real process and records each pid; `next()` resolves on the next spawn. */
export function watchedSpawn(): { spawnFn: LocalSpawnFn; pids: number[]; next(): Promise<number> } {
  const pids: number[] = [];
  const waiting: ((pid: number) => void)[] = [];
  const spawnFn: LocalSpawnFn = (command, args, options) => {
    const child = spawn(command, args, options);
    if (child.pid !== undefined) {
      pids.push(child.pid);
      for (const resolve of waiting.splice(0)) resolve(child.pid);
    }
    return child;
  };
  return { spawnFn, pids, next: () => new Promise((resolve) => waiting.push(resolve)) };
}

/** The fields of /proc/<pid>/stat after the command name: state, ppid, pgrp, … (Linux). */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * The process group of the running process `pid`. A run's script is not its group's leader when
 * the worker starts it under the orphan guard (the guard leads the group): check the group, not
 * the script's own pid. Throws when `pid` is gone.
 */
export function processGroupOf(pid: number): number {
  const group = statFields(pid)?.[2];
  if (group === undefined) throw new Error(`process ${pid} is gone: no process group to read`);
  return Number(group);
}

/**
 * True while a live process (not a zombie) belongs to the process group `pgid` — the group a
 * local run starts in. Zombies are skipped: an orphan reparented to an init that reaps lazily is
 * already dead. Reads /proc (Linux).
 */
export function groupAlive(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const [state, , group] = statFields(entry) ?? [];
    if (Number(group) === pgid && state !== 'Z' && state !== 'X') return true;
  }
  return false;
}

/** Kills what a failed test left behind. */
export function killGroups(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
