import { describe, expect, it } from 'vitest';
import { AcpPrompt, type AcpOpenPermission } from './acp/acp-session.js';
import { CodexTurn } from './codex-app-server/codex-turn.js';

// What the session pool reads to keep a session that waits for an approval answer.
describe('awaiting an approval answer', () => {
  it('an ACP prompt: while it runs with an open permission request, not once it ended', () => {
    const prompt = new AcpPrompt();
    expect(prompt.awaitingPermission).toBe(false);
    prompt.ask({ id: 7, params: {} } as unknown as AcpOpenPermission);
    expect(prompt.awaitingPermission).toBe(true);
    prompt.end({ kind: 'failed', message: 'gone', engineGone: true });
    expect(prompt.awaitingPermission).toBe(false);
  });

  it('a codex turn: while it runs with a queued approval, not after its answer or once the engine is gone', () => {
    const turn = new CodexTurn('thread-1', 'turn-1');
    const ask = () => turn.request('item/commandExecution/requestApproval', { threadId: 'thread-1', turnId: 'turn-1', itemId: 'item-1', command: 'ls' }, () => undefined);
    expect(turn.awaitingApproval).toBe(false);
    expect(ask()).toBe(true);
    expect(turn.awaitingApproval).toBe(true);
    const state = turn.state();
    expect(state.kind).toBe('awaiting_approval');
    turn.answer(state.kind === 'awaiting_approval' ? state.approval.approvalKey : '', 'accept');
    expect(turn.awaitingApproval).toBe(false);
    expect(ask()).toBe(true);
    turn.engineGone('the engine exited');
    expect(turn.awaitingApproval).toBe(false);
  });
});
