#!/usr/bin/env node
// A fixture `codex app-server`: JSON-RPC over stdio without the "jsonrpc" field, as codex 0.171
// speaks it (see shared/reference/engine-protocol-facts.md). Behaviour is chosen by the prompt:
//   APPROVE_ME  asks item/commandExecution/requestApproval (ids from 0); on accept/acceptForSession
//               it writes $FIXTURE_MARKER, then answers; on decline it answers without running
//   EDIT_ME     asks item/fileChange/requestApproval the same way
//   TWICE       asks two command approvals one after the other
//   HANG        never ends the turn until turn/interrupt
//   WAIT_STEER  ends the turn after a turn/steer, echoing the steered text
//   CRASH       exits with code 3 in the middle of the turn
//   FAIL        ends the turn `failed` after an `error` notification
//   PLAN        sends turn/plan/updated before answering
//   FLOOD[<n>]  streams <n> deltas of 65,536 characters (delta i is the digit i % 10 repeated),
//               appends {"flooded":<n>} to $FIXTURE_LOG and completes the turn
//   anything else: answers "Hello from fixture" in two deltas
// Dies with a secret on stderr at start-up or when a turn starts: see ../../__fixtures__/leak-secret.mjs.
// Every message received is appended to $FIXTURE_LOG (one JSON line), if set.
import { appendFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { leakSecretAndExit, leaksAt } from '../../__fixtures__/leak-secret.mjs';

if (leaksAt('startup')) await leakSecretAndExit();

const log = process.env.FIXTURE_LOG;
const marker = process.env.FIXTURE_MARKER;
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const notify = (method, params) => send({ method, params });
let nextServerId = 0;
const waiting = new Map(); // our request id -> resolve(result)
const ask = (method, params) =>
  new Promise((resolve) => {
    const id = nextServerId++;
    waiting.set(id, resolve);
    send({ id, method, params });
  });
let threadCounter = 0;
let turnCounter = 0;
const turns = new Map(); // turnId -> { interrupt(), steer(text) }

process.stderr.write('WARNING: fixture stderr noise\n');

const usage = (threadId, turnId) =>
  notify('thread/tokenUsage/updated', {
    threadId,
    turnId,
    tokenUsage: {
      total: { totalTokens: 36, inputTokens: 24, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 12, reasoningOutputTokens: 0 },
      last: { totalTokens: 36, inputTokens: 24, cachedInputTokens: 4, cacheWriteInputTokens: 0, outputTokens: 12, reasoningOutputTokens: 0 },
      modelContextWindow: 1000,
    },
  });

function answer(threadId, turnId, id, text) {
  notify('item/started', { threadId, turnId, item: { type: 'agentMessage', id, text: '' }, startedAtMs: Date.now() });
  const half = Math.ceil(text.length / 2);
  notify('item/agentMessage/delta', { threadId, turnId, itemId: id, delta: text.slice(0, half) });
  notify('item/agentMessage/delta', { threadId, turnId, itemId: id, delta: text.slice(half) });
  notify('item/completed', { threadId, turnId, item: { type: 'agentMessage', id, text }, completedAtMs: Date.now() });
}

const complete = (threadId, turnId, status, error = null) => {
  turns.delete(turnId);
  notify('turn/completed', { threadId, turn: { id: turnId, status, error, items: [], durationMs: 1 } });
};

async function approval(threadId, turnId, kind, n) {
  const itemId = `call_${kind}_${n}`;
  const command = kind === 'command' ? `/bin/bash -lc 'touch MARKER_${n}'` : undefined;
  notify('item/started', { threadId, turnId, item: kind === 'command' ? { type: 'commandExecution', id: itemId, command, status: 'inProgress' } : { type: 'fileChange', id: itemId, changes: [{ path: 'a.txt' }], status: 'inProgress' } });
  const method = kind === 'command' ? 'item/commandExecution/requestApproval' : 'item/fileChange/requestApproval';
  const params = kind === 'command'
    ? { kind: 'command', threadId, turnId, itemId, startedAtMs: Date.now(), command, cwd: process.cwd(), availableDecisions: ['accept', 'cancel'] }
    : { threadId, turnId, itemId, startedAtMs: Date.now(), reason: 'needs to edit a.txt', grantRoot: null };
  const result = await ask(method, params);
  const decision = result?.decision;
  notify('serverRequest/resolved', { threadId, requestId: 0 });
  const accepted = decision === 'accept' || decision === 'acceptForSession';
  if (accepted && marker) writeFileSync(`${marker}${n === 1 ? '' : `.${n}`}`, String(decision));
  const status = accepted ? 'completed' : 'declined';
  notify('item/completed', { threadId, turnId, item: kind === 'command' ? { type: 'commandExecution', id: itemId, command, status } : { type: 'fileChange', id: itemId, changes: [], status } });
  return decision;
}

async function runTurn(threadId, turnId, text) {
  const control = {};
  turns.set(turnId, control);
  notify('turn/started', { threadId, turn: { id: turnId, status: 'inProgress', items: [] } });
  if (leaksAt('turn')) {
    notify('item/agentMessage/delta', { threadId, turnId, itemId: 'msg_leak', delta: 'working' });
    return leakSecretAndExit();
  }
  const flood = /FLOOD\[(\d+)\]/.exec(text);
  if (flood) {
    const count = Number(flood[1]);
    for (let index = 0; index < count; index += 1) {
      notify('item/agentMessage/delta', { threadId, turnId, itemId: 'msg_flood', delta: String(index % 10).repeat(65_536) });
    }
    if (log) appendFileSync(log, `${JSON.stringify({ flooded: count })}\n`);
    return complete(threadId, turnId, 'completed');
  }
  if (text.includes('HANG')) {
    control.interrupt = () => complete(threadId, turnId, 'interrupted');
    return;
  }
  if (text.includes('WAIT_STEER')) {
    control.steer = (steered) => {
      answer(threadId, turnId, 'msg_steer', `got: ${steered}`);
      usage(threadId, turnId);
      complete(threadId, turnId, 'completed');
    };
    return;
  }
  if (text.includes('CRASH')) {
    notify('item/agentMessage/delta', { threadId, turnId, itemId: 'msg_crash', delta: 'about to' });
    setTimeout(() => process.exit(3), 20);
    return;
  }
  if (text.includes('FAIL')) {
    notify('error', { threadId, turnId, willRetry: false, error: { message: 'fake injected HTTP 400' } });
    complete(threadId, turnId, 'failed', { message: 'fake injected HTTP 400' });
    return;
  }
  if (text.includes('PLAN')) {
    notify('turn/plan/updated', { threadId, turnId, explanation: null, plan: [{ step: 'look', status: 'completed' }, { step: 'answer', status: 'inProgress' }, { step: 'rest', status: 'pending' }] });
  }
  const decisions = [];
  if (text.includes('APPROVE_ME')) decisions.push(await approval(threadId, turnId, 'command', 1));
  if (text.includes('EDIT_ME')) decisions.push(await approval(threadId, turnId, 'fileChange', 1));
  if (text.includes('TWICE')) {
    decisions.push(await approval(threadId, turnId, 'command', 1));
    decisions.push(await approval(threadId, turnId, 'command', 2));
  }
  usage(threadId, turnId);
  answer(threadId, turnId, `msg_${turnId}`, decisions.length === 0 ? 'Hello from fixture' : `Done after ${decisions.join(', ')}`);
  complete(threadId, turnId, 'completed');
}

const reader = createInterface({ input: process.stdin });
reader.on('line', (line) => {
  if (log) appendFileSync(log, `${line}\n`);
  const message = JSON.parse(line);
  if (message.method === undefined) {
    waiting.get(message.id)?.(message.result);
    waiting.delete(message.id);
    return;
  }
  const { id, method, params } = message;
  const reply = (result) => send({ id, result });
  switch (method) {
    case 'initialize':
      return reply({ userAgent: 'fixture/0.171.0', codexHome: '/tmp', platformFamily: 'unix', platformOs: 'linux' });
    case 'initialized':
      return undefined;
    case 'thread/start': {
      threadCounter += 1;
      const thread = { id: `thread-${process.pid}-${threadCounter}` };
      reply({ thread, approvalPolicy: params.approvalPolicy ?? 'on-request', model: 'fixture' });
      return notify('thread/started', { thread });
    }
    case 'thread/resume':
      return reply({ thread: { id: params.threadId }, model: 'fixture' });
    case 'turn/start': {
      turnCounter += 1;
      const turnId = `turn-${turnCounter}`;
      reply({ turn: { id: turnId, status: 'inProgress', items: [] } });
      const text = params.input.map((part) => part.text ?? '').join('\n');
      void runTurn(params.threadId, turnId, text);
      return undefined;
    }
    case 'turn/steer': {
      const control = turns.get(params.expectedTurnId);
      if (control?.steer === undefined) return send({ id, error: { code: -32600, message: 'no active turn to steer' } });
      reply({ turnId: params.expectedTurnId });
      return control.steer(params.input.map((part) => part.text).join('\n'));
    }
    case 'turn/interrupt': {
      reply({});
      return turns.get(params.turnId)?.interrupt?.();
    }
    default:
      return send({ id, error: { code: -32601, message: `unknown method ${method}` } });
  }
});
reader.on('close', () => process.exit(0));
