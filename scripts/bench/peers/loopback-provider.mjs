// A chat-completions server for the heap bench, run as a child process (its sockets are not in the
// measured heap). It holds every request until the parent says 'release', and reports arrivals.
import { createServer } from 'node:http';

const held = [];
let arrived = 0;
const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 0,
  model: 'bench',
  choices: [{ index: 0, message: { role: 'assistant', content: '6' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});
const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    held.push(response);
    arrived += 1;
    process.send({ arrived });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', 4096, () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'release') {
    arrived = 0;
    for (const response of held.splice(0)) response.writeHead(200, { 'content-type': 'application/json' }).end(body);
  } else if (message === 'exit') {
    server.close();
    process.exit(0);
  }
});
