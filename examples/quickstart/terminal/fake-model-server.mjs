// The loopback fake model server of the README's terminal session ("From a terminal"): an
// OpenAI-compatible server on 127.0.0.1:4141, where `profiles.json` points the `local` profile.
// It asks to read the workspace README, then answers. From this folder:
//
//   node fake-model-server.mjs &
//   npx agent-assistant run --profiles profiles.json --profile local --workspace ws --prompt 'What does the README say?'
//
// Stop it with Ctrl-C (or `kill %1`). PORT=… picks another port (then edit profiles.json too).
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const ANSWER = 'The workspace README says: **hello from the workspace**. It is one line long.';

/** Reads README.md first; once a tool result is in the conversation, answers. */
function reply(request) {
  server.enqueue(reply); // one reply always waiting: the server answers any number of turns
  const messages = Array.isArray(request.body?.messages) ? request.body.messages : [];
  if (!messages.some((message) => message?.role === 'tool')) {
    return { toolCalls: [{ id: 'call_1', name: 'workspace_read', arguments: { path: 'README.md' } }], usage: { inputTokens: 210, outputTokens: 18 } };
  }
  return { text: ANSWER, deltaSize: 8, usage: { inputTokens: 260, outputTokens: 21 } };
}

const server = await createFakeOpenAICompatibleServer({ port: Number(process.env.PORT ?? 4141), replies: [reply] });
console.log(`fake model server listening on ${server.url}`);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
