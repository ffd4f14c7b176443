import { HarnessConfigError } from '../../../core/errors/harness-config-error.js';
import type { GitHubPublicFetcherOptions } from '../github-fetcher-options.js';
import type { GitHubHttpSettings } from './github-http.js';
import { ownerProblem, repoProblem } from './github-validation.js';

/** Size limits of a fetcher. */
export interface GitHubFetcherLimits {
  maxFileBytes: number;
  maxReadmeBytes: number;
  maxTreeEntries: number;
  maxResponseBytes: number;
}

/** Checks fetcher options (throwing `HarnessConfigError` naming the field) and applies defaults. */
export function resolveFetcherOptions(options: GitHubPublicFetcherOptions): {
  owner: string;
  repo: string;
  http: GitHubHttpSettings;
  limits: GitHubFetcherLimits;
} {
  if (typeof options !== 'object' || options === null)
    throw new HarnessConfigError('GitHub options are required.', { field: 'options' });
  const ownerIssue = ownerProblem(options.owner);
  if (ownerIssue !== undefined) throw new HarnessConfigError(`owner ${ownerIssue}.`, { field: 'owner' });
  const repoIssue = repoProblem(options.repo);
  if (repoIssue !== undefined) throw new HarnessConfigError(`repo ${repoIssue}.`, { field: 'repo' });
  if (options.fetch !== undefined && typeof options.fetch !== 'function') {
    throw new HarnessConfigError('fetch must be a function.', { field: 'fetch' });
  }
  if (
    options.token !== undefined &&
    (typeof options.token !== 'string' || options.token.trim() === '' || /\s/.test(options.token))
  ) {
    throw new HarnessConfigError('token must be a non-empty string without whitespace.', { field: 'token' });
  }
  if (options.now !== undefined && typeof options.now !== 'function')
    throw new HarnessConfigError('now must be a function.', { field: 'now' });
  const userAgent = options.userAgent ?? 'agent-assistant-harness';
  if (typeof userAgent !== 'string' || userAgent.trim() === '') {
    throw new HarnessConfigError('userAgent must be a non-empty string.', { field: 'userAgent' });
  }
  return {
    owner: options.owner,
    repo: options.repo,
    http: {
      fetch: options.fetch,
      token: options.token,
      apiBase: baseUrl(options.baseUrl ?? 'https://api.github.com', 'baseUrl'),
      rawBase: baseUrl(options.rawBaseUrl ?? 'https://raw.githubusercontent.com', 'rawBaseUrl'),
      timeoutMs: positive(options.timeoutMs, 10_000, 'timeoutMs'),
      userAgent,
      now: options.now ?? Date.now,
    },
    limits: {
      maxFileBytes: positive(options.maxFileBytes, 65_536, 'maxFileBytes'),
      maxReadmeBytes: positive(options.maxReadmeBytes, 16_384, 'maxReadmeBytes'),
      maxTreeEntries: positive(options.maxTreeEntries, 500, 'maxTreeEntries'),
      maxResponseBytes: positive(options.maxResponseBytes, 8 * 1024 * 1024, 'maxResponseBytes'),
    },
  };
}

function baseUrl(value: unknown, field: string): URL {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (
    url === undefined ||
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    url.search !== '' ||
    url.hash !== '' ||
    url.username !== '' ||
    url.password !== ''
  ) {
    throw new HarnessConfigError(`${field} must be an http(s) URL without query, fragment or credentials.`, { field });
  }
  url.pathname = url.pathname.replace(/\/+$/, '') || '/';
  return url;
}

function positive(value: number | undefined, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new HarnessConfigError(`${field} must be a positive integer.`, { field });
  return value;
}
