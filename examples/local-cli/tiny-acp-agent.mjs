// A tiny Agent Client Protocol agent for the example (JSON-RPC 2.0, one JSON message per line on
// stdio). For every prompt it asks permission to "write hello.txt", writes it only when allowed,
// and streams a short answer. Real engines: `gemini --acp`, `opencode acp`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const say = (sessionId, text) => send({ method: 'session/update', params: { sessionId, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } } } });
let cwd = process.cwd();
let waiting;

createInterface({ input: process.stdin }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method === undefined) return waiting?.(message.result);
  if (message.method === 'initialize') return send({ id: message.id, result: { protocolVersion: 1, agentCapabilities: { loadSession: false } } });
  if (message.method === 'session/new') {
    cwd = message.params.cwd;
    return send({ id: message.id, result: { sessionId: 'tiny-1' } });
  }
  if (message.method !== 'session/prompt') return undefined;
  const { sessionId } = message.params;
  send({
    id: 0,
    method: 'session/request_permission',
    params: {
      sessionId,
      toolCall: { toolCallId: 'write-1', title: 'Write hello.txt', kind: 'edit', status: 'pending' },
      options: [
        { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
        { optionId: 'deny', name: 'Reject', kind: 'reject_once' },
      ],
    },
  });
  waiting = (result) => {
    const allowed = result?.outcome?.optionId === 'allow';
    if (allowed) writeFileSync(join(cwd, 'hello.txt'), 'hello\n');
    for (const piece of allowed ? ['I wrote ', 'hello.txt.'] : ['OK, ', 'I left it alone.']) say(sessionId, piece);
    send({ id: message.id, result: { stopReason: 'end_turn' } });
  };
  return undefined;
});
