// node scripts/bench/compaction-bench.mjs (after npm run build) — what compaction adds to a turn
// with a 200-message history: the harness's own time (rendering, estimating, folding, fitting) with
// an instant in-memory model, the same over the loopback fake OpenAI-compatible server, and the
// summary call's tokens (the fake model counts 4 bytes a token, as the default estimate does).
import { createHarness, createOpenAICompatibleModel, estimateTokensByBytes } from '@agent-assistant/harness';
import { createFakeOpenAICompatibleServer } from '@agent-assistant/harness/testing/node';

const MESSAGES = 200;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const WINDOW = 16_000;
const SUMMARY = 'The user is planning a week in Norway: Oslo first, then the fjords by ferry. '.repeat(12);

// 200 messages of 120 to 1,200 characters (deterministic), alternating user and assistant.
const words = 'ferry fjord Oslo Bergen ticket timetable weather rain jacket hiking trail cabin booking train night price'.split(' ');
const history = Array.from({ length: MESSAGES }, (_, index) => {
  const length = 120 + ((index * 7919) % 1_080);
  let text = `#${index} `;
  for (let word = index; text.length < length; word += 3) text += `${words[word % words.length]} `;
  return { role: index % 2 === 0 ? 'user' : 'assistant', text: text.trim() };
});
const input = {
  assistantId: 'bench',
  turnId: 'turn-compaction',
  message: { id: 'm', text: 'Which ferry should I take on Tuesday?', receivedAt: '2026-01-01T00:00:00.000Z' },
  instructions: { systemPrompt: 'You are a travel assistant.' },
  history,
};

/** An instant model that reports the tokens it was sent (bytes / 4 of its texts) and answers. */
function countingModel(contextWindow) {
  const calls = [];
  return {
    calls,
    contextWindow,
    async nextStep(step) {
      const sent = [step.instructions.systemPrompt, ...(step.history ?? []).map((message) => message.text), step.message.text, JSON.stringify(step.transcript)].join('\n');
      const summary = step.instructions.systemPrompt.startsWith('You compact');
      const text = summary ? SUMMARY : 'Take the 9:30 ferry from Bergen.';
      const usage = { inputTokens: estimateTokensByBytes(sent), outputTokens: estimateTokensByBytes(text) };
      calls.push({ summary, usage });
      return { type: 'final_answer', text, usage };
    },
  };
}

async function timePerRun(label, run) {
  for (let index = 0; index < 20; index += 1) await run(); // warm up
  const started = process.hrtime.bigint();
  for (let index = 0; index < RUNS; index += 1) await run();
  return { label, ms: Number(process.hrtime.bigint() - started) / 1e6 / RUNS };
}

const bytesOf = (value) => Buffer.byteLength(JSON.stringify(value));
console.log(`Compaction of a ${MESSAGES}-message history (${bytesOf(history)} bytes of JSON, ~${history.reduce((sum, message) => sum + estimateTokensByBytes(message.text), 0)} tokens by bytes / 4), Node ${process.version}, ${RUNS} runs each`);

// 1. On demand: harness.compact with an instant model.
const manualModel = countingModel(WINDOW);
const manual = createHarness({ model: manualModel });
const once = await manual.compact(history);
const { receipt } = once;
console.log(`\nharness.compact: ${receipt.messagesBefore} → ${receipt.messagesAfter} messages, ${receipt.bytesBefore} → ${receipt.bytesAfter} bytes, ~${receipt.estimatedTokensBefore} → ~${receipt.estimatedTokensAfter} tokens; summary call: ${receipt.summaryUsage.inputTokens} input + ${receipt.summaryUsage.outputTokens} output tokens`);
const compactTime = await timePerRun('harness.compact (instant model)', () => manual.compact(history));

// 2. In a turn: the same turn with automatic compaction off and on (instant model).
const offModel = countingModel(WINDOW);
const off = createHarness({ model: offModel, compaction: { auto: false } });
const onModel = countingModel(WINDOW);
const on = createHarness({ model: onModel });
const plain = await off.runTurn(input);
const compacted = await on.runTurn(input);
if (plain.outcome !== 'completed' || compacted.metadata?.compaction?.receipts?.[0]?.trigger !== 'threshold') throw new Error('bench turns did not run as expected');
const offTime = await timePerRun('runTurn, compaction off', () => off.runTurn(input));
const onTime = await timePerRun('runTurn, compacted at the threshold', () => on.runTurn(input));
const stepWithout = offModel.calls[0].usage.inputTokens;
const [summaryCall, stepAfter] = onModel.calls.slice(0, 2);

console.log('\n| variant | ms / run | added ms |');
console.log('|---|---:|---:|');
for (const row of [compactTime, offTime, onTime]) console.log(`| ${row.label} | ${row.ms.toFixed(3)} | ${row === onTime ? (onTime.ms - offTime.ms).toFixed(3) : '—'} |`);

console.log('\n| tokens (bytes / 4) | input | output |');
console.log('|---|---:|---:|');
console.log(`| the step without compaction | ${stepWithout} | — |`);
console.log(`| the summary call (added once) | ${summaryCall.usage.inputTokens} | ${summaryCall.usage.outputTokens} |`);
console.log(`| the step after compaction | ${stepAfter.usage.inputTokens} | — |`);
console.log(`| this turn in all: without → with compaction | ${stepWithout} → ${summaryCall.usage.inputTokens + stepAfter.usage.inputTokens} | — |`);

// 3. Over HTTP: the loopback fake OpenAI-compatible server, one turn that overflows, compacts, retries.
const server = await createFakeOpenAICompatibleServer();
try {
  const answer = (request) => {
    const body = JSON.stringify(request.body);
    if (body.includes('You compact a conversation')) return { text: SUMMARY, usage: { inputTokens: estimateTokensByBytes(body), outputTokens: estimateTokensByBytes(SUMMARY) } };
    if (body.length > 40_000) return { type: 'http', status: 400, body: { error: { message: "This model's maximum context length is 10000 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } };
    return { text: 'Take the 9:30 ferry from Bergen.', usage: { inputTokens: estimateTokensByBytes(body), outputTokens: 9 } };
  };
  const model = createOpenAICompatibleModel({ baseUrl: server.url, model: 'bench', contextWindow: 1_000_000 });
  const harness = createHarness({ model });
  const loops = Math.max(20, Math.floor(RUNS / 4));
  let overflowMs = 0;
  let plainMs = 0;
  for (let index = 0; index < loops + 5; index += 1) {
    server.enqueue(answer, answer, answer);
    let started = process.hrtime.bigint();
    const result = await harness.runTurn(input);
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.outcome !== 'completed' || result.usage.modelCalls !== 3) throw new Error(`overflow turn ended ${result.outcome}`);
    server.enqueue(answer);
    started = process.hrtime.bigint();
    await harness.runTurn({ ...input, history: result.metadata.compaction.history });
    const after = Number(process.hrtime.bigint() - started) / 1e6;
    if (index >= 5) {
      overflowMs += elapsed;
      plainMs += after;
    }
  }
  console.log(`\nLoopback HTTP (fake OpenAI-compatible server): overflow → compaction → retry ${(overflowMs / loops).toFixed(2)} ms / turn; the next turn with the stored compacted history ${(plainMs / loops).toFixed(2)} ms`);
} finally {
  await server.close();
}
