// npm start — offline by default: a tiny in-process fake of the GitHub REST API serves one
// repository, and a scripted model explores it with the public GitHub tools.
// GITHUB_LIVE=1 npm start — the same against real GitHub (GITHUB_REPO=owner/name, default
// octocat/Hello-World; GITHUB_TOKEN from the environment is optional and never printed).
import { createServer } from 'node:http';
import { createHarness, createPublicGitHubToolRegistry } from '@agent-assistant/harness';
import { createScriptedModel } from '@agent-assistant/harness/testing';

const live = process.env.GITHUB_LIVE === '1';
const [owner, repo] = (live ? process.env.GITHUB_REPO ?? 'octocat/Hello-World' : 'acme/rocket').split('/');

/** GitHub-shaped answers for acme/rocket, keyed by API path. */
function fakeRoutes(base) {
  const file = (path, text) => ({
    type: 'file',
    name: path.split('/').at(-1),
    path,
    sha: `sha-${path}`,
    size: Buffer.byteLength(text),
    encoding: 'base64',
    content: Buffer.from(text).toString('base64'),
    html_url: `https://github.com/acme/rocket/blob/main/${path}`,
    download_url: `${base}/raw/acme/rocket/main/${path}`,
  });
  const readme = file('README.md', '# Rocket\n\nA tiny launcher. Run `npm start` to lift off.\n');
  return {
    '/api/repos/acme/rocket': {
      full_name: 'acme/rocket',
      html_url: 'https://github.com/acme/rocket',
      description: 'A tiny launcher',
      default_branch: 'main',
      stargazers_count: 128,
      forks_count: 9,
      open_issues_count: 2,
      language: 'JavaScript',
      license: { spdx_id: 'MIT', name: 'MIT License' },
      topics: ['cli', 'demo'],
      archived: false,
      fork: false,
      pushed_at: '2026-01-15T10:00:00Z',
      updated_at: '2026-01-15T10:00:00Z',
    },
    '/api/repos/acme/rocket/readme': readme,
    '/api/repos/acme/rocket/contents': [
      { type: 'file', name: 'README.md', path: 'README.md', sha: 'sha-README.md', size: readme.size },
      { type: 'file', name: 'package.json', path: 'package.json', sha: 'sha-package.json', size: 64 },
      { type: 'dir', name: 'src', path: 'src', sha: 'sha-src', size: 0 },
    ],
    '/api/repos/acme/rocket/contents/README.md': readme,
    '/api/repos/acme/rocket/commits': [
      {
        sha: 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678',
        html_url: 'https://github.com/acme/rocket/commit/a1b2c3d',
        commit: { message: 'Add countdown\n\nLonger body.', author: { name: 'Ada', date: '2026-01-15T10:00:00Z' } },
        author: { login: 'ada' },
      },
    ],
  };
}

/** Starts the fake on 127.0.0.1 (random port); `/api` plays api.github.com, `/raw` the raw host. */
async function startFakeGitHub() {
  let routes = {};
  const server = createServer((request, response) => {
    const path = new URL(request.url, 'http://localhost').pathname;
    const body = routes[path];
    response.writeHead(body === undefined ? 404 : 200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body ?? { message: 'Not Found' }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${server.address().port}`;
  routes = fakeRoutes(base);
  return { base, close: () => new Promise((resolve) => server.close(resolve)) };
}

const fake = live ? undefined : await startFakeGitHub();
const tools = createPublicGitHubToolRegistry({
  owner,
  repo,
  ...(fake === undefined ? {} : { baseUrl: `${fake.base}/api`, rawBaseUrl: `${fake.base}/raw` }),
  ...(process.env.GITHUB_TOKEN ? { token: process.env.GITHUB_TOKEN } : {}),
  maxFileBytes: 2_000,
});
console.log(`tools: ${tools.toolNames.join(', ')}\n`);

const lastResult = (input) => [...input.transcript].reverse().find((item) => item.type === 'tool_result')?.result;
const show = (result) =>
  console.log(`── ${result.toolName} (${result.status})\n${result.output ?? JSON.stringify(result.error)}\n`);

// A real model decides these steps itself; the script shows what it receives at each step.
const model = createScriptedModel([
  { type: 'tool_request', calls: [{ id: 'meta', name: 'public_repo_metadata', input: {} }] },
  (input) => {
    show(lastResult(input));
    return { type: 'tool_request', calls: [{ id: 'tree', name: 'public_repo_list_tree', input: {} }] };
  },
  (input) => {
    const listing = lastResult(input);
    show(listing);
    const entries = listing.structuredOutput?.entries ?? [];
    const pick =
      entries.find((entry) => entry.type === 'file' && /^readme/i.test(entry.path)) ??
      entries.find((entry) => entry.type === 'file');
    if (pick === undefined) return { type: 'final_answer', text: 'The repository root has no files to read.' };
    return { type: 'tool_request', calls: [{ id: 'read', name: 'public_repo_read_file', input: { path: pick.path } }] };
  },
  (input) => {
    show(lastResult(input));
    return { type: 'tool_request', calls: [{ id: 'commits', name: 'public_repo_recent_commits', input: { limit: 3 } }] };
  },
  (input) => {
    const commits = lastResult(input);
    show(commits);
    const latest = commits.structuredOutput?.commits?.[0];
    return {
      type: 'final_answer',
      text: `${owner}/${repo}: latest commit ${
        latest ? `"${latest.subject}" by ${latest.authorLogin ?? latest.authorName}` : 'unknown'
      }.`,
    };
  },
]);

try {
  const result = await createHarness({ model, tools, limits: { maxIterations: 6 } }).runTurn({
    assistantId: 'repo-guide',
    turnId: 'turn-1',
    message: { id: 'message-1', text: `What is ${owner}/${repo} and what changed last?`, receivedAt: new Date().toISOString() },
    instructions: { systemPrompt: 'Answer from the repository only.' },
  });
  console.log(`outcome: ${result.outcome} / ${result.stopReason}`);
  console.log(`answer:  ${result.assistantMessage?.text ?? JSON.stringify(result.metadata?.error)}`);
} finally {
  await fake?.close();
}
