// A long-running "engine" that takes input mid-turn, for the steering tests. Protocol (JSON lines):
// host → engine: {"prompt": text} first, then {"steer": text, "id": id} any time; the engine
// answers each steer with {"ack": id} (or {"nack": id, "reason"} for text containing REFUSE) and
// ends the turn when a steer says "that is all": {"done": text}, where text lists the prompt and
// every accepted input in order. Before reading anything it prints {"ready": true}.
import { createInterface } from 'node:readline';

const seen = [];
const send = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);
send({ ready: true });
for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.prompt !== undefined) seen.push(message.prompt);
  if (message.steer === undefined) continue;
  if (message.steer.includes('REFUSE')) {
    send({ nack: message.id, reason: 'engine refused it' });
    continue;
  }
  seen.push(message.steer);
  send({ ack: message.id });
  if (message.steer === 'that is all') {
    send({ done: seen.join(' | ') });
    break;
  }
}
