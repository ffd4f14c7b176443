// One claimer process of runResumeGuardConformance (started by createNodeResumeGuardClaimers):
// reads its ClaimerSetup as the first stdin line, builds the guard with the named export of the
// given module, prints "ready", waits for the line "go", resumes, prints the result and exits.
import { createInterface } from 'node:readline';
import { describeError } from '../../shared/describe-error.js';
import { runResumeGuardClaimer } from '../resume-guard-conformance/conformance-scenario.js';
import type { ClaimerMessage, ClaimerSetup } from './resume-guard-claimer-protocol.js';

function send(message: ClaimerMessage): Promise<void> {
  return new Promise((resolve) => process.stdout.write(`${JSON.stringify(message)}\n`, () => resolve()));
}

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
  const first = await lines.next();
  if (first.done === true) throw new Error('no setup line on stdin');
  const setup = JSON.parse(first.value) as ClaimerSetup;
  const module = (await import(setup.module)) as Record<string, unknown>;
  const build = module[setup.exportName];
  if (typeof build !== 'function') throw new Error(`${setup.module} has no function export ${JSON.stringify(setup.exportName)}`);
  const guard = await (build as (args: unknown) => unknown)(setup.args);
  await send({ type: 'ready' });
  await lines.next();
  const result = await runResumeGuardClaimer(setup.job, guard as Parameters<typeof runResumeGuardClaimer>[1], {
    toolStarted: () => void send({ type: 'tool-started' }),
  });
  await send({ type: 'result', result });
}

main().then(
  () => process.exit(0),
  async (error: unknown) => {
    await send({ type: 'error', message: describeError(error) });
    process.exit(1);
  },
);
