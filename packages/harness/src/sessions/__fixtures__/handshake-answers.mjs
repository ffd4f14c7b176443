#!/usr/bin/env node
// An engine that answers the opening handshake of probeEngineSessions in odd ways:
// `node handshake-answers.mjs <mode> [pidFile]`. Modes:
//   acp-rich      ACP initialize answer with nested, false, empty and hostile capability names
//   acp-v2        ACP initialize answer with protocolVersion 2
//   acp-asks      sends a request of its own first and answers initialize only once the probe
//                 has refused it with "method not found"
//   error         answers initialize with a JSON-RPC error
//   malformed     answers initialize with a result that is not an initialize answer
//   claude-rich   answers the stream-json control_request initialize with capabilities, after noise
//   claude-error  answers the control_request initialize with subtype error
//   exit          writes $OPENAI_API_KEY and a hint to stderr, exits 3 without answering
//   hang          never answers and stays after stdin closes (until it is signalled)
// Writes its pid to pidFile when given as an absolute path (the probe appends the engine's own
// arguments, such as `--acp`, which must not become files). Exits when stdin closes (except `hang`).
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [mode, pidFile] = process.argv.slice(2);
if (pidFile?.startsWith('/')) writeFileSync(pidFile, String(process.pid));
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

if (mode === 'exit') {
  process.stderr.write(`loading config\nfatal: key ${process.env.OPENAI_API_KEY} rejected; run setup first\n`);
  process.exit(3);
}
if (mode === 'hang') {
  process.stdin.on('data', () => undefined);
  process.stdin.on('end', () => undefined);
  globalThis.setInterval(() => undefined, 60_000);
}

let initializeId;
const reader = createInterface({ input: process.stdin });
reader.on('close', () => {
  if (mode !== 'hang') process.exit(0);
});
reader.on('line', (line) => {
  if (mode === 'hang') return;
  const message = JSON.parse(line);
  if (message.type === 'control_request') {
    process.stdout.write('not json at all\n');
    send({ type: 'system', subtype: 'status' });
    send({ type: 'control_response', response: { subtype: 'success', request_id: 'someone-else', response: {} } });
    if (mode === 'claude-error') {
      return send({ type: 'control_response', response: { subtype: 'error', request_id: message.request_id, error: 'initialize is not supported' } });
    }
    return send({
      type: 'control_response',
      response: {
        subtype: 'success',
        request_id: message.request_id,
        response: { claude_code_version: '9.9.9', capabilities: ['ui_surface_v1', 'has space', 42, 'get_usage_detached_v1'] },
      },
    });
  }
  if (message.method === undefined) {
    // The answer to acp-asks' own request: answer initialize once it was refused as it should be.
    if (message.id === 0 && message.error?.code === -32601 && initializeId !== undefined) {
      send({ jsonrpc: '2.0', id: initializeId, result: { protocolVersion: 1, agentInfo: { name: 'asking-agent', version: '0.1.0' } } });
    }
    return undefined;
  }
  if (message.method !== 'initialize') return undefined;
  const reply = (result) => send({ jsonrpc: '2.0', id: message.id, result });
  switch (mode) {
    case 'acp-rich':
      return reply({
        protocolVersion: 1,
        agentInfo: { name: 'rich-agent', version: '1.2.3-beta.1' },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          sessionCapabilities: { close: {}, list: {} },
          ['__proto__']: true,
          'bad name': true,
        },
      });
    case 'acp-v2':
      return reply({ protocolVersion: 2, agentInfo: { name: 'future-agent', version: '5.0.0' }, agentCapabilities: {} });
    case 'acp-asks':
      initializeId = message.id;
      return send({ jsonrpc: '2.0', id: 0, method: 'fs/read_text_file', params: { path: '/etc/passwd' } });
    case 'error':
      return send({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'not logged in: run `engine login`' } });
    case 'malformed':
      return reply({ hello: 'world' });
    default:
      return undefined;
  }
});
