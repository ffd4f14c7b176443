// A tiny "coding CLI" for the streaming example: reads the prompt on stdin and prints JSON lines
// as it works — a plan, a command it runs, the answer in pieces — then a final line.
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const words = Buffer.concat(chunks).toString('utf8').trim().split(/\s+/).filter(Boolean).length;
const line = (value) => new Promise((resolve) => process.stdout.write(`${JSON.stringify(value)}\n`, resolve));
const pause = () => new Promise((resolve) => setTimeout(resolve, 150)); // only to make the stream visible
await line({ plan: [{ step: 'Count the words', done: false }, { step: 'Answer', done: false }] });
await line({ running: 'wc -w', id: 'cmd-1' });
await pause();
await line({ finished: 'cmd-1', ok: true });
await line({ plan: [{ step: 'Count the words', done: true }, { step: 'Answer', done: false }] });
const answer = ['Your prompt ', `has ${words} words.`];
for (const piece of answer) {
  await line({ delta: piece });
  await pause();
}
await line({ answer: answer.join('') });
