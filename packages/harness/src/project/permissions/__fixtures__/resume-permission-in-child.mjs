// Resumes a turn paused by a permission rule's `ask`, in a fresh process: reads
// { continuation, secret, decisions, rules } from stdin (rules as [tool, action | [pattern, action][]]
// entries), wraps its own bash tool with those rules, resumes with the built package (imported
// by path, so it is this checkout's build) and prints { result, toolCalls }.
import { createHarness, withPermissionRules } from '../../../../dist/index.js';
import { createFakeToolRegistry, createScriptedModel } from '../../../../dist/testing.js';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const { continuation, secret, decisions, rules } = JSON.parse(raw);
const tools = createFakeToolRegistry({ bash: ({ command }) => `ran ${command}` });
const ruleSet = {
  tools: new Map(
    rules.map(([tool, rule]) => [tool, typeof rule === 'string' ? rule : rule.map(([pattern, action]) => ({ pattern, action }))]),
  ),
};
const harness = createHarness({
  model: createScriptedModel((input) => {
    const last = input.transcript.filter((item) => item.type === 'tool_result').at(-1);
    return { type: 'final_answer', text: last?.result.output ?? `error: ${last?.result.error?.code ?? 'none'}` };
  }),
  tools: withPermissionRules(tools, ruleSet),
  continuationSecret: secret,
});
const result = await harness.resumeTurn(continuation, { type: 'approval', decisions });
process.stdout.write(JSON.stringify({ result, toolCalls: tools.calls }));
process.exit(0);
