// A tiny "CLI" for the example: reads the prompt on stdin and prints one JSON object.
// `--hang` makes it never answer, to show the timeout.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const prompt = Buffer.concat(chunks).toString('utf8');
if (process.argv.includes('--hang')) globalThis.setInterval(() => undefined, 1_000);
else {
  const words = prompt.trim().split(/\s+/).filter(Boolean).length;
  process.stdout.write(JSON.stringify({ answer: `I read ${words} words; the last line was: ${prompt.trim().split('\n').at(-1)}`, tokens: { in: words, out: 12 } }));
}
