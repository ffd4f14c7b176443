import { describe, expect, it } from 'vitest';
import { createHarness } from '../../core/create-harness.js';
import type { HarnessToolExecutionContext, HarnessToolResult } from '../../shared/types/tools.js';
import { createScriptedModel, createTurnInput, memoryTraceSink } from '../../testing/index.js';
import { createPublicGitHubToolRegistry } from './create-public-github-tool-registry.js';
import type { GitHubFetchFunction } from './github-types.js';
import { PUBLIC_GITHUB_TOOL_NAMES } from './github-tool-names.js';

const CANARY = 'github_pat_CANARY_0123456789';
const API = 'https://api.github.com';

type Route = { status?: number; body: unknown; headers?: Record<string, string> };

/** An injected fetch answering GitHub-shaped JSON by path; records every URL and header set. */
function githubFetch(routes: Record<string, Route>) {
  const calls: Array<{ url: string; headers: Record<string, string> }> = [];
  const fetch: GitHubFetchFunction = async (input, init) => {
    calls.push({ url: input, headers: { ...(init.headers as Record<string, string>) } });
    const url = new URL(input);
    const route = routes[url.pathname] ?? { status: 404, body: { message: 'Not Found' } };
    return new Response(typeof route.body === 'string' ? route.body : JSON.stringify(route.body), {
      status: route.status ?? 200,
      headers: { 'content-type': 'application/json', ...route.headers },
    });
  };
  return { fetch, calls };
}

const context: HarnessToolExecutionContext = {
  assistantId: 'a',
  turnId: 't',
  iteration: 1,
  toolCallIndex: 0,
  signal: new AbortController().signal,
};

const repository = {
  full_name: 'octo/demo',
  html_url: 'https://github.com/octo/demo',
  description: 'Demo',
  default_branch: 'main',
  stargazers_count: 5,
  forks_count: 1,
  open_issues_count: 0,
  license: { spdx_id: 'MIT' },
  topics: [],
};

const base64 = (text: string) => btoa(text);
const readme = {
  type: 'file',
  path: 'README.md',
  sha: 'r',
  size: 14,
  encoding: 'base64',
  content: base64('# Demo\nHello!\n'),
  html_url: 'https://github.com/octo/demo/blob/main/README.md',
};

const routes: Record<string, Route> = {
  '/repos/octo/demo': { body: repository },
  '/repos/octo/demo/readme': { body: readme },
  '/repos/octo/demo/contents': {
    body: [
      { type: 'dir', path: 'src', sha: 's', size: 0 },
      { type: 'file', path: 'README.md', sha: 'r', size: 14 },
    ],
  },
  '/repos/octo/demo/contents/src/index.ts': {
    body: { ...readme, path: 'src/index.ts', size: 19, content: base64('export const a = 1;') },
  },
  '/repos/octo/demo/commits': {
    body: [
      {
        sha: 'f'.repeat(40),
        html_url: 'https://github.com/octo/demo/commit/f',
        commit: { message: 'Fix bug\n\nDetails', author: { name: 'Ada', date: '2026-02-01T00:00:00Z' } },
        author: { login: 'ada' },
      },
    ],
  },
  '/search/code': {
    body: {
      total_count: 1,
      incomplete_results: false,
      items: [{ path: 'src/index.ts', html_url: 'https://github.com/octo/demo/blob/main/src/index.ts', score: 1 }],
    },
  },
};

async function run(
  tools: ReturnType<typeof createPublicGitHubToolRegistry>,
  name: string,
  input: Record<string, unknown> = {}
): Promise<HarnessToolResult> {
  return tools.execute({ id: `call-${name}`, name, input }, context);
}

describe('createPublicGitHubToolRegistry', () => {
  it('offers four tools without a token and adds code search with one', async () => {
    const { fetch } = githubFetch(routes);
    const anonymous = createPublicGitHubToolRegistry({ owner: 'octo', repo: 'demo', fetch });
    expect(anonymous.toolNames).toEqual(PUBLIC_GITHUB_TOOL_NAMES.slice(0, 4));
    const withToken = createPublicGitHubToolRegistry({ owner: 'octo', repo: 'demo', fetch, token: CANARY });
    const definitions = await withToken.listAvailable();
    expect(definitions.map((tool) => tool.name)).toEqual([...PUBLIC_GITHUB_TOOL_NAMES]);
    expect(definitions.find((tool) => tool.name === 'public_repo_read_file')?.inputSchema).toMatchObject({
      type: 'object',
      required: ['path'],
      properties: { path: { type: 'string' }, ref: { type: 'string' } },
    });
    expect(definitions.every((tool) => tool.description?.includes('octo/demo'))).toBe(true);
  });

  it('answers every tool with text for the model and structured facts', async () => {
    const { fetch, calls } = githubFetch(routes);
    const tools = createPublicGitHubToolRegistry({ owner: 'octo', repo: 'demo', fetch, token: CANARY });

    const metadata = await run(tools, 'public_repo_metadata');
    expect(metadata.status).toBe('success');
    expect(metadata.output).toContain('octo/demo — Demo');
    expect(metadata.output).toContain('License: MIT');
    expect(metadata.output).toContain('# Demo\nHello!');
    expect(metadata.structuredOutput).toMatchObject({
      repository: { defaultBranch: 'main', stars: 5 },
      readme: { path: 'README.md', truncated: false },
    });

    const tree = await run(tools, 'public_repo_list_tree');
    expect(tree.output).toBe('2 entries in the repository root:\nsrc/\nREADME.md (14 bytes)');
    expect(tree.structuredOutput).toMatchObject({ totalEntries: 2, truncated: false });

    const file = await run(tools, 'public_repo_read_file', { path: 'src/index.ts' });
    expect(file.output).toBe('export const a = 1;');
    expect(file.structuredOutput).toEqual({
      path: 'src/index.ts',
      ref: null,
      sha: 'r',
      sizeBytes: 19,
      returnedBytes: 19,
      truncated: false,
      binary: false,
      htmlUrl: 'https://github.com/octo/demo/blob/main/README.md',
    });

    const commits = await run(tools, 'public_repo_recent_commits', { limit: 5 });
    expect(commits.output).toBe('fffffff 2026-02-01T00:00:00Z ada: Fix bug');

    const search = await run(tools, 'public_repo_search_code', { query: 'export' });
    expect(search.output).toBe('1 match for "export":\nsrc/index.ts');

    expect(calls.every((call) => call.url.startsWith(`${API}/`))).toBe(true);
    expect(JSON.stringify([metadata, tree, file, commits, search])).not.toContain(CANARY);
  });

  it('returns invalid paths to the model as retryable invalid_input naming the field', async () => {
    const { fetch, calls } = githubFetch(routes);
    const tools = createPublicGitHubToolRegistry({ owner: 'octo', repo: 'demo', fetch });
    const result = await run(tools, 'public_repo_read_file', { path: '../../etc/passwd' });
    expect(result.error).toMatchObject({ code: 'invalid_input', retryable: true, metadata: { fields: ['path'] } });
    expect(result.error?.message).toContain('".."');
    const limit = await run(tools, 'public_repo_recent_commits', { limit: 50 });
    expect(limit.error).toMatchObject({ code: 'invalid_input', metadata: { fields: ['limit'] } });
    expect(calls).toHaveLength(0);
  });

  it('maps GitHub failures to structured tool errors with the right retryability', async () => {
    const { fetch } = githubFetch({
      '/repos/octo/demo': {
        status: 403,
        body: { message: 'API rate limit exceeded' },
        headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767225900' },
      },
      '/repos/octo/demo/commits': { status: 403, body: { message: `Forbidden for ${CANARY}` } },
      '/repos/octo/demo/contents/src': { body: 'not json' },
    });
    const tools = createPublicGitHubToolRegistry({
      owner: 'octo',
      repo: 'demo',
      fetch,
      token: CANARY,
      now: () => 1_767_225_600_000,
    });
    const limited = await run(tools, 'public_repo_metadata');
    expect(limited.error).toMatchObject({
      code: 'rate_limited',
      retryable: true,
      metadata: { status: 403, resetAt: '2026-01-01T00:05:00.000Z', retryAfterSeconds: 300 },
    });
    const forbidden = await run(tools, 'public_repo_recent_commits');
    expect(forbidden.error).toMatchObject({ code: 'forbidden', retryable: false });
    const missing = await run(tools, 'public_repo_read_file', { path: 'nope.txt' });
    expect(missing.error).toMatchObject({ code: 'not_found', retryable: true });
    const malformed = await run(tools, 'public_repo_list_tree', { path: 'src' });
    expect(malformed.error).toMatchObject({ code: 'invalid_response', retryable: false });
    expect(JSON.stringify([limited, forbidden, missing, malformed])).not.toContain(CANARY);
  });

  it('keeps metadata when only the README fails, and says so', async () => {
    const { fetch } = githubFetch({ ...routes, '/repos/octo/demo/readme': { status: 500, body: { message: 'boom' } } });
    const result = await run(createPublicGitHubToolRegistry({ owner: 'octo', repo: 'demo', fetch }), 'public_repo_metadata');
    expect(result.status).toBe('success');
    expect(result.output).toContain('README: could not be read (transport:');
    expect(result.structuredOutput).toMatchObject({ readme: null, readmeError: expect.stringContaining('transport') });
  });

  it('serves a harness turn: the model reads a file, gets not_found, corrects the path and answers; no token in result or trace', async () => {
    const { fetch } = githubFetch(routes);
    const model = createScriptedModel([
      { type: 'tool_request', calls: [{ id: 'c1', name: 'public_repo_read_file', input: { path: 'index.ts' } }] },
      { type: 'tool_request', calls: [{ id: 'c2', name: 'public_repo_read_file', input: { path: 'src/index.ts' } }] },
      (input) => ({
        type: 'final_answer',
        text: `It exports: ${String((input.transcript.at(-1) as { result: HarnessToolResult }).result.output)}`,
      }),
    ]);
    const trace = memoryTraceSink();
    const tools = createPublicGitHubToolRegistry({ owner: 'octo', repo: 'demo', fetch, token: CANARY });
    const harness = createHarness({ model, tools, trace });
    const result = await harness.runTurn(createTurnInput());
    expect(result.outcome).toBe('completed');
    expect(JSON.stringify({ result, events: trace.events, definitions: await tools.listAvailable() })).not.toContain(CANARY);
    expect(result.assistantMessage?.text).toBe('It exports: export const a = 1;');
    expect(model.calls[1]?.transcript.at(-1)).toMatchObject({ result: { error: { code: 'not_found', retryable: true } } });
  });
});
