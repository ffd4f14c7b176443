// A one-shot "engine" for the backend streaming tests: `node streaming-engine.mjs` reads the
// prompt on stdin, then plays $ENGINE_SCRIPT (a JSON array) step by step: `{ "line": <value> }`
// prints the value as one JSON line, `{ "raw": "<text>" }` prints the text as a line, and
// `{ "gate": true }` waits until GET $GATE_URL answers (the test answers once it saw the events
// before it), so a test can prove events arrive while the process still runs, without sleeping.
const stdin = await new Promise((resolve) => {
  const chunks = [];
  process.stdin.on('data', (chunk) => chunks.push(chunk));
  process.stdin.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
});
const steps = JSON.parse(process.env.ENGINE_SCRIPT ?? '[]');
const write = (text) => new Promise((resolve) => process.stdout.write(`${text}\n`, resolve));
for (const step of steps) {
  if (step.gate) await fetch(process.env.GATE_URL).then((response) => response.text());
  else if (step.raw !== undefined) await write(step.raw);
  else await write(JSON.stringify(step.line).replaceAll('$PROMPT', stdin.trim()));
}
