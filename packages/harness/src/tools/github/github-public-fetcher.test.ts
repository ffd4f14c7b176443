import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { closeServer, loopbackServers } from '../../__fixtures__/loopback-servers.js';
import { HarnessConfigError } from '../../core/errors/harness-config-error.js';
import { GitHubPublicFetchError } from './github-public-fetch-error.js';
import type { GitHubPublicFetcherOptions } from './github-fetcher-options.js';
import { GitHubPublicFetcher } from './github-public-fetcher.js';

const CANARY = 'ghp_CANARYtoken0123456789abcdef';

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

interface FakeGitHub {
  api: string;
  raw: string;
  requests: Array<{ path: string; query: URLSearchParams; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

const loopback = loopbackServers();

/** A loopback server: `/api/...` plays api.github.com, `/raw/...` plays raw.githubusercontent.com. */
async function fakeGitHub(routes: Record<string, Handler>): Promise<FakeGitHub> {
  const requests: FakeGitHub['requests'] = [];
  const { server, origin } = await loopback.serve((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push({ path: url.pathname, query: url.searchParams, headers: request.headers });
    const handler = routes[url.pathname];
    if (handler === undefined)
      return json(response, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    handler(request, response);
  });
  return { api: `${origin}/api`, raw: `${origin}/raw`, requests, close: () => closeServer(server) };
}

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  response.end(JSON.stringify(body));
}

const reply =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_request, response) =>
    json(response, status, body, headers);

function fetcherFor(fake: FakeGitHub, options: Partial<GitHubPublicFetcherOptions> = {}): GitHubPublicFetcher {
  return new GitHubPublicFetcher({
    owner: 'octo',
    repo: 'demo',
    baseUrl: fake.api,
    rawBaseUrl: fake.raw,
    timeoutMs: 5000,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<GitHubPublicFetchError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason
  );
  if (!GitHubPublicFetchError.isInstance(error)) throw new Error(`expected a GitHubPublicFetchError, got ${String(error)}`);
  return error;
}

const repository = {
  id: 1,
  full_name: 'octo/demo',
  html_url: 'https://github.com/octo/demo',
  description: 'A demo repository',
  default_branch: 'main',
  stargazers_count: 42,
  forks_count: 7,
  open_issues_count: 3,
  language: 'TypeScript',
  license: { key: 'mit', spdx_id: 'MIT', name: 'MIT License' },
  topics: ['agents', 'tools'],
  archived: false,
  fork: false,
  pushed_at: '2026-01-02T03:04:05Z',
  updated_at: '2026-01-02T03:04:05Z',
};

function fileJson(path: string, text: string, extra: Record<string, unknown> = {}) {
  const base64 = Buffer.from(text)
    .toString('base64')
    .replace(/(.{60})/g, '$1\n');
  return {
    type: 'file',
    name: path.split('/').at(-1),
    path,
    sha: 'abc123',
    size: Buffer.byteLength(text),
    encoding: 'base64',
    content: base64,
    html_url: `https://github.com/octo/demo/blob/main/${path}`,
    download_url: `https://raw.githubusercontent.com/octo/demo/main/${path}`,
    ...extra,
  };
}

describe('GitHubPublicFetcher: success paths', () => {
  it('maps repository metadata and sends GitHub headers with the token to the API host', async () => {
    const fake = await fakeGitHub({ '/api/repos/octo/demo': reply(200, repository) });
    const info = await fetcherFor(fake, { token: CANARY, userAgent: 'test-agent' }).getRepository();
    expect(info).toEqual({
      fullName: 'octo/demo',
      description: 'A demo repository',
      htmlUrl: 'https://github.com/octo/demo',
      defaultBranch: 'main',
      stars: 42,
      forks: 7,
      openIssues: 3,
      language: 'TypeScript',
      license: 'MIT',
      topics: ['agents', 'tools'],
      archived: false,
      fork: false,
      pushedAt: '2026-01-02T03:04:05Z',
      updatedAt: '2026-01-02T03:04:05Z',
    });
    expect(fake.requests[0]?.headers).toMatchObject({
      accept: 'application/vnd.github+json',
      'user-agent': 'test-agent',
      'x-github-api-version': '2022-11-28',
      authorization: `Bearer ${CANARY}`,
    });
  });

  it('reads a small file from base64 content, passing the ref', async () => {
    const fake = await fakeGitHub({
      '/api/repos/octo/demo/contents/src/index.ts': reply(200, fileJson('src/index.ts', 'export const x = 1;\n'.repeat(10))),
    });
    const file = await fetcherFor(fake).readFile({ path: 'src/index.ts', ref: 'v1.0' });
    expect(file).toMatchObject({
      path: 'src/index.ts',
      ref: 'v1.0',
      truncated: false,
      binary: false,
      sizeBytes: 200,
      returnedBytes: 200,
    });
    expect(file.content).toBe('export const x = 1;\n'.repeat(10));
    expect(fake.requests[0]?.query.get('ref')).toBe('v1.0');
  });

  it('cuts a long file at maxFileBytes without splitting a UTF-8 character', async () => {
    const text = 'aé'.repeat(100);
    const fake = await fakeGitHub({ '/api/repos/octo/demo/contents/notes.md': reply(200, fileJson('notes.md', text)) });
    const file = await fetcherFor(fake, { maxFileBytes: 11 }).readFile({ path: 'notes.md' });
    expect(file).toMatchObject({ truncated: true, sizeBytes: 300, returnedBytes: 10, content: 'aéaéaéa' });
    expect(file.content).not.toContain('\uFFFD');
  });

  it('streams a huge file from the raw host, keeps only maxFileBytes and cancels the download', async () => {
    let written = 0;
    let closed!: () => void;
    const downloadClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const hugeSize = 50 * 1024 * 1024;
    const fake = await fakeGitHub({
      '/api/repos/octo/demo/contents/data/big.txt': (_request, response) =>
        json(response, 200, {
          ...fileJson('data/big.txt', ''),
          size: hugeSize,
          encoding: 'none',
          content: '',
          download_url: `${fake.raw}/octo/demo/main/data/big.txt`,
        }),
      '/raw/octo/demo/main/data/big.txt': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const pump = () => {
          while (!response.destroyed && written < hugeSize) {
            written += chunk.length;
            if (!response.write(chunk)) return void response.once('drain', pump);
          }
        };
        response.on('close', closed);
        pump();
      },
    });
    const file = await fetcherFor(fake, { token: CANARY, maxFileBytes: 1000 }).readFile({ path: 'data/big.txt' });
    expect(file).toMatchObject({ truncated: true, sizeBytes: hugeSize, returnedBytes: 1000, binary: false });
    expect(file.content).toBe('x'.repeat(1000));
    await downloadClosed;
    expect(written).toBeLessThan(hugeSize);
    const rawRequest = fake.requests.find((request) => request.path.startsWith('/raw/'));
    expect(rawRequest?.headers.authorization).toBeUndefined();
  });

  it('flags binary files instead of returning garbage', async () => {
    const fake = await fakeGitHub({
      '/api/repos/octo/demo/contents/logo.png': reply(200, {
        ...fileJson('logo.png', ''),
        size: 4,
        content: Buffer.from([0x89, 0x50, 0x00, 0x47]).toString('base64'),
      }),
    });
    expect(await fetcherFor(fake).readFile({ path: 'logo.png' })).toMatchObject({ binary: true, content: '', sizeBytes: 4 });
  });

  it('lists a directory, or a subtree recursively with a limit, looking up the default branch once', async () => {
    const tree = {
      sha: 't1',
      truncated: false,
      tree: [
        { path: 'README.md', mode: '100644', type: 'blob', sha: 'a', size: 10 },
        { path: 'src', mode: '040000', type: 'tree', sha: 'b' },
        { path: 'src/a.ts', mode: '100644', type: 'blob', sha: 'c', size: 5 },
        { path: 'src/b.ts', mode: '100644', type: 'blob', sha: 'd', size: 6 },
        { path: 'src/lib', mode: '040000', type: 'tree', sha: 'e' },
        { path: 'vendor', mode: '160000', type: 'commit', sha: 'f' },
      ],
    };
    const fake = await fakeGitHub({
      '/api/repos/octo/demo': reply(200, repository),
      '/api/repos/octo/demo/git/trees/main': reply(200, tree),
      '/api/repos/octo/demo/contents': reply(200, [
        { type: 'file', name: 'README.md', path: 'README.md', sha: 'a', size: 10 },
        { type: 'dir', name: 'src', path: 'src', sha: 'b', size: 0 },
      ]),
    });
    const fetcher = fetcherFor(fake);
    expect(await fetcher.listTree()).toEqual({
      ref: null,
      path: '',
      recursive: false,
      entries: [
        { path: 'README.md', type: 'file', size: 10 },
        { path: 'src', type: 'dir' },
      ],
      totalEntries: 2,
      truncated: false,
    });
    const listing = await fetcher.listTree({ path: 'src/', recursive: true, limit: 2 });
    expect(listing).toEqual({
      ref: null,
      path: 'src',
      recursive: true,
      entries: [
        { path: 'src/a.ts', type: 'file', size: 5 },
        { path: 'src/b.ts', type: 'file', size: 6 },
      ],
      totalEntries: 3,
      truncated: true,
    });
    expect((await fetcher.listTree({ recursive: true })).entries.at(-1)).toEqual({ path: 'vendor', type: 'submodule' });
    expect(
      fake.requests.filter((request) => request.path === '/api/repos/octo/demo/git/trees/main')[0]?.query.get('recursive')
    ).toBe('1');
    expect(fake.requests.filter((request) => request.path === '/api/repos/octo/demo')).toHaveLength(1);
    const notDir = await failure(fetcher.listTree({ path: 'README.md', recursive: true }));
    expect(notDir.reason).toBe('invalid_request');
  });

  it('lists at most 20 commits with subject, author and date', async () => {
    const commits = Array.from({ length: 3 }, (_, index) => ({
      sha: `${index}`.repeat(40),
      html_url: `https://github.com/octo/demo/commit/${index}`,
      commit: {
        message: `Subject ${index}\n\nBody text`,
        author: { name: `Dev ${index}`, email: 'dev@example.com', date: '2026-01-01T00:00:00Z' },
      },
      author: { login: `dev${index}` },
    }));
    const fake = await fakeGitHub({ '/api/repos/octo/demo/commits': reply(200, commits) });
    const result = await fetcherFor(fake).listCommits({ limit: 99, path: 'src', ref: 'main' });
    expect(result[0]).toEqual({
      sha: '0'.repeat(40),
      subject: 'Subject 0',
      authorName: 'Dev 0',
      authorLogin: 'dev0',
      date: '2026-01-01T00:00:00Z',
      htmlUrl: 'https://github.com/octo/demo/commit/0',
    });
    expect(JSON.stringify(result)).not.toContain('dev@example.com');
    const query = fake.requests[0]?.query;
    expect([query?.get('per_page'), query?.get('path'), query?.get('sha')]).toEqual(['20', 'src', 'main']);
  });

  it('searches code within the repository only, and needs a token', async () => {
    const fake = await fakeGitHub({
      '/api/search/code': reply(200, {
        total_count: 1,
        incomplete_results: false,
        items: [
          {
            name: 'a.ts',
            path: 'src/a.ts',
            sha: 'c',
            html_url: 'https://github.com/octo/demo/blob/main/src/a.ts',
            score: 1,
            text_matches: [{ fragment: 'const needle = 1' }],
          },
        ],
      }),
    });
    const result = await fetcherFor(fake, { token: CANARY }).searchCode({ query: 'needle' });
    expect(result).toEqual({
      query: 'needle',
      totalCount: 1,
      incompleteResults: false,
      items: [
        {
          path: 'src/a.ts',
          htmlUrl: 'https://github.com/octo/demo/blob/main/src/a.ts',
          score: 1,
          fragments: ['const needle = 1'],
        },
      ],
    });
    expect(fake.requests[0]?.query.get('q')).toBe('needle repo:octo/demo');
    expect(fake.requests[0]?.headers.accept).toBe('application/vnd.github.text-match+json');
    expect((await failure(fetcherFor(fake).searchCode({ query: 'needle' }))).reason).toBe('forbidden');
    expect((await failure(fetcherFor(fake, { token: CANARY }).searchCode({ query: 'x repo:other/repo' }))).reason).toBe(
      'invalid_request'
    );
  });

  it('reads globalThis.fetch at call time when no fetch is injected', async () => {
    const fake = await fakeGitHub({ '/api/repos/octo/demo': reply(200, repository) });
    const fetcher = fetcherFor(fake);
    const original = globalThis.fetch;
    const seen: string[] = [];
    globalThis.fetch = ((input: string, init?: RequestInit) => {
      seen.push(String(input));
      return original(input, init);
    }) as typeof fetch;
    try {
      await fetcher.getRepository();
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual([`${fake.api}/repos/octo/demo`]);
  });
});

describe('GitHubPublicFetcher: failures', () => {
  it('maps 404 to a retryable not_found', async () => {
    const fake = await fakeGitHub({});
    const error = await failure(fetcherFor(fake).readFile({ path: 'missing.txt' }));
    expect(error).toMatchObject({ reason: 'not_found', retryable: true, status: 404, code: 'HARNESS_ERR_GITHUB_FETCH' });
    expect(error.message).toContain('Not Found');
  });

  it('maps 403 with an exhausted rate limit to rate_limited with the reset time', async () => {
    const fake = await fakeGitHub({
      '/api/repos/octo/demo': reply(
        403,
        { message: 'API rate limit exceeded for 127.0.0.1.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1767225660' }
      ),
    });
    const error = await failure(fetcherFor(fake, { now: () => 1_767_225_600_000 }).getRepository());
    expect(error).toMatchObject({
      reason: 'rate_limited',
      retryable: true,
      status: 403,
      resetAt: '2026-01-01T00:01:00.000Z',
      retryAfterSeconds: 60,
    });
    expect(error.message).toContain('2026-01-01T00:01:00.000Z');
  });

  it('maps 429 with retry-after to rate_limited', async () => {
    const fake = await fakeGitHub({
      '/api/repos/octo/demo': reply(429, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '30' }),
    });
    const error = await failure(fetcherFor(fake, { now: () => 1_767_225_600_000 }).getRepository());
    expect(error).toMatchObject({
      reason: 'rate_limited',
      retryable: true,
      retryAfterSeconds: 30,
      resetAt: '2026-01-01T00:00:30.000Z',
    });
  });

  it('maps 403 without rate-limit signs to a non-retryable forbidden', async () => {
    const fake = await fakeGitHub({
      '/api/repos/octo/demo': reply(403, { message: 'Resource not accessible' }, { 'x-ratelimit-remaining': '4999' }),
    });
    expect(await failure(fetcherFor(fake).getRepository())).toMatchObject({ reason: 'forbidden', retryable: false, status: 403 });
  });

  it('maps 5xx to a retryable transport error and a refused connection to transport', async () => {
    const fake = await fakeGitHub({ '/api/repos/octo/demo': reply(502, { message: 'Bad gateway' }) });
    expect(await failure(fetcherFor(fake).getRepository())).toMatchObject({ reason: 'transport', retryable: true, status: 502 });
    const closed = await fakeGitHub({});
    await closed.close();
    expect(await failure(fetcherFor(closed).getRepository())).toMatchObject({
      reason: 'transport',
      retryable: true,
      status: undefined,
    });
  });

  it('maps malformed JSON, an unexpected shape and an oversized body to invalid_response', async () => {
    const fake = await fakeGitHub({
      '/api/repos/octo/demo': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"full_name": "octo/demo", ');
      },
      '/api/repos/octo/demo/commits': reply(200, { not: 'an array' }),
      '/api/repos/octo/demo/contents/bad.txt': reply(200, { ...fileJson('bad.txt', 'x'), content: '!!!!' }),
      '/api/repos/octo/demo/contents': reply(
        200,
        Array.from({ length: 500 }, (_, index) => ({ type: 'file', path: `f${index}`, sha: 'x', size: 1 }))
      ),
    });
    expect(await failure(fetcherFor(fake).getRepository())).toMatchObject({ reason: 'invalid_response', retryable: false });
    expect((await failure(fetcherFor(fake).readFile({ path: 'bad.txt' }))).message).toContain('not valid base64');
    expect((await failure(fetcherFor(fake).listCommits())).message).toContain('unexpected response shape');
    expect((await failure(fetcherFor(fake, { maxResponseBytes: 1000 }).listTree())).message).toContain('more than 1000 bytes');
  });

  it('times out a server that never answers, within timeoutMs', async () => {
    const fake = await fakeGitHub({ '/api/repos/octo/demo': () => undefined });
    const error = await failure(fetcherFor(fake, { timeoutMs: 50 }).getRepository());
    expect(error).toMatchObject({ reason: 'timeout', retryable: true });
    expect(error.message).toContain('did not answer within 50 ms');
  });

  it('stops when the caller aborts, and sends nothing when already aborted', async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const fake = await fakeGitHub({ '/api/repos/octo/demo': () => arrived() });
    const controller = new AbortController();
    const pending = failure(fetcherFor(fake).getRepository({ signal: controller.signal }));
    await requestArrived;
    controller.abort();
    expect(await pending).toMatchObject({ reason: 'aborted', retryable: true });
    const before = fake.requests.length;
    expect(await failure(fetcherFor(fake).getRepository({ signal: AbortSignal.abort() }))).toMatchObject({ reason: 'aborted' });
    expect(fake.requests).toHaveLength(before);
  });

  it('contacts only the configured hosts: foreign download_url and redirects are refused', async () => {
    const seen: string[] = [];
    const recording = (input: string, init: RequestInit) => {
      seen.push(input);
      return fetch(input, init);
    };
    const fake = await fakeGitHub({
      '/api/repos/octo/demo/contents/big.bin': reply(200, {
        ...fileJson('big.bin', ''),
        size: 5_000_000,
        encoding: 'none',
        content: '',
        download_url: 'https://evil.example/steal',
      }),
      '/api/repos/octo/demo': (_request, response) => {
        response.writeHead(302, { location: 'http://evil.example/repos/octo/demo' });
        response.end();
      },
      '/api/repos/octo/demo/commits': (_request, response) => {
        response.writeHead(301, { location: '/api/repositories/1/commits' });
        response.end();
      },
      '/api/repositories/1/commits': reply(200, []),
    });
    const fetcher = fetcherFor(fake, { fetch: recording });
    const foreignDownload = await failure(fetcher.readFile({ path: 'big.bin' }));
    expect(foreignDownload).toMatchObject({ reason: 'invalid_response' });
    expect(foreignDownload.message).toContain('https://evil.example');
    expect((await failure(fetcher.getRepository())).message).toContain('Refused to contact http://evil.example');
    expect(await fetcher.listCommits()).toEqual([]);
    expect(seen.every((url) => url.startsWith(fake.api) || url.startsWith(fake.raw))).toBe(true);
    expect(seen).toContain(`${fake.api}/repositories/1/commits`);
  });

  it('never lets the token appear in errors, even when the server echoes it', async () => {
    const fake = await fakeGitHub({
      '/api/repos/octo/demo': (request, response) =>
        json(response, 401, { message: `Bad credentials: ${String(request.headers.authorization)}` }),
    });
    const error = await failure(fetcherFor(fake, { token: CANARY }).getRepository());
    expect(error.reason).toBe('forbidden');
    expect(error.message).toContain('[redacted]');
    const everything = JSON.stringify({ error, message: error.message, stack: error.stack, fields: { ...error } });
    expect(everything).not.toContain(CANARY);
    expect(JSON.stringify(fetcherFor(fake, { token: CANARY }))).not.toContain(CANARY);
  });

  it('refuses unsafe paths and refs before sending anything', async () => {
    const fake = await fakeGitHub({});
    const fetcher = fetcherFor(fake);
    for (const path of ['../etc/passwd', '/abs', 'a//b', 'a/./b', 'a\\b', 'a\u0000b']) {
      expect((await failure(fetcher.readFile({ path }))).reason).toBe('invalid_request');
    }
    expect((await failure(fetcher.listCommits({ ref: 'main..evil' }))).reason).toBe('invalid_request');
    expect(fake.requests).toHaveLength(0);
  });

  it('validates options with HarnessConfigError naming the field', () => {
    const base = { owner: 'octo', repo: 'demo' };
    const cases: Array<[Partial<GitHubPublicFetcherOptions>, string]> = [
      [{ owner: 'bad owner' }, 'owner'],
      [{ repo: '..' }, 'repo'],
      [{ baseUrl: 'ftp://x' }, 'baseUrl'],
      [{ rawBaseUrl: 'https://user:pw@raw.example' }, 'rawBaseUrl'],
      [{ timeoutMs: 0 }, 'timeoutMs'],
      [{ maxFileBytes: 1.5 }, 'maxFileBytes'],
      [{ token: '' }, 'token'],
    ];
    for (const [override, field] of cases) {
      expect(() => new GitHubPublicFetcher({ ...base, ...override } as GitHubPublicFetcherOptions)).toThrow(
        expect.objectContaining({ name: 'HarnessConfigError', field })
      );
    }
    expect(() => new GitHubPublicFetcher(base)).not.toThrow(HarnessConfigError);
  });
});
