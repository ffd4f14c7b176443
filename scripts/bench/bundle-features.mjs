// node scripts/bench/bundle-features.mjs — what each feature of createHarness costs in the Worker
// bundles of turn-bench.mjs (same esbuild settings, from src): each program is bundled again with
// the modules of one feature replaced by stubs that keep their export names, and the gzip bytes
// saved are printed. The stubbed bundles do not run; they only measure. A feature a program cannot
// drop today is a feature that `createHarness` reaches whatever its config.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleProgram } from './peers/bundle-program.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const src = join(root, 'packages', 'harness', 'src');
const programs = ['harness-json-tool.mjs', 'harness-openai-compatible.mjs'];

const features = [
  ['backend runner (runBackendTurn, its stream and the ExecutionResult checks)', ['core/internal/run-backend-turn.ts']],
  ['resumeTurn (read, verify and claim a continuation, resume the run)', ['core/internal/resume-run.ts']],
  ['continuation codec (encode with HMAC signing and size shrinking; decode)', ['core/continuation/continuation-codec.ts']],
  ['pauses for tools and approvals (pause-for-tools, tool-approval)', ['core/internal/pause-for-tools.ts', 'core/tool-approval.ts']],
  ['compaction (in the loop, harness.compact, its config)', ['core/internal/compact-in-turn.ts', 'core/compaction/compact-standalone.ts', 'core/compaction/resolve-compaction.ts']],
  ['structured output (output schemas, partial output)', ['core/output/resolve-output.ts', 'core/output/read-structured-answer.ts', 'core/internal/partial-output-stream.ts']],
];
features.push(['all of the above', features.flatMap(([, files]) => files)]);

/** A module with the same export names whose every export is an empty function. */
function stubOf(file) {
  const text = readFileSync(file, 'utf8');
  const names = new Set();
  for (const match of text.matchAll(/^export (?:async )?(?:function\*?|const|let|class) (\w+)/gm)) names.add(match[1]);
  for (const match of text.matchAll(/^export \{([^}]*)\}/gm)) {
    for (const part of match[1].split(',')) {
      const name = part.trim().replace(/^type\s+/, '').split(/\s+as\s+/).at(-1);
      if (name !== '' && !part.trim().startsWith('type ')) names.add(name);
    }
  }
  return [...names].map((name) => `export function ${name}() { throw new Error('stub'); }`).join('\n');
}

async function gzipSize(entry, stubbed) {
  const stubs = new Set(stubbed.map((file) => join(src, file)));
  const { code } = await bundleProgram(entry, [
    {
      name: 'harness-src-with-stubs',
      setup(build) {
        build.onResolve({ filter: /^@agent-assistant\/harness$/ }, () => ({ path: join(src, 'index.ts') }));
        build.onLoad({ filter: /\.ts$/ }, (args) => (stubs.has(args.path) ? { contents: stubOf(args.path), loader: 'ts' } : undefined));
      },
    },
  ]);
  return gzipSync(code, { level: 9 }).length;
}

for (const program of programs) {
  const whole = await gzipSize(program, []);
  console.log(`\n${program}: ${whole.toLocaleString('en-US')} B gzip from src`);
  console.log('| feature stubbed out | gzip B without it | saved B |');
  console.log('|---|---:|---:|');
  for (const [label, files] of features) {
    const without = await gzipSize(program, files);
    console.log(`| ${label} | ${without.toLocaleString('en-US')} | ${(whole - without).toLocaleString('en-US')} |`);
  }
}
