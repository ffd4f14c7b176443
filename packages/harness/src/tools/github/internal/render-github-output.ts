import type {
  GitHubCodeSearchResult,
  GitHubCommitSummary,
  GitHubFileContent,
  GitHubRepositoryInfo,
  GitHubTreeListing,
} from '../github-types.js';

/** Text for `public_repo_metadata`. */
export function renderMetadata(
  info: GitHubRepositoryInfo,
  readme: GitHubFileContent | null,
  readmeNote: string | undefined
): string {
  const facts = [
    `Default branch: ${info.defaultBranch}`,
    `Stars: ${info.stars}`,
    `Forks: ${info.forks}`,
    `Open issues: ${info.openIssues}`,
    `License: ${info.license ?? 'none detected'}`,
    `Language: ${info.language ?? 'unknown'}`,
  ];
  const lines = [`${info.fullName}${info.description ? ` — ${info.description}` : ''}`, facts.join(' · ')];
  if (info.topics.length > 0) lines.push(`Topics: ${info.topics.join(', ')}`);
  if (info.archived) lines.push('Archived: yes (read-only)');
  if (info.pushedAt !== null) lines.push(`Last push: ${info.pushedAt}`);
  lines.push(`URL: ${info.htmlUrl}`);
  if (readme !== null) {
    lines.push('', `README (${readme.path}, ${sizeNote(readme)}):`, readme.binary ? '[binary]' : readme.content);
  } else {
    lines.push('', readmeNote ?? 'README: none.');
  }
  return lines.join('\n');
}

/** Text for `public_repo_list_tree`. */
export function renderTree(listing: GitHubTreeListing): string {
  const where = listing.path === '' ? 'the repository root' : `"${listing.path}"`;
  const header = `${listing.totalEntries} entr${listing.totalEntries === 1 ? 'y' : 'ies'} ${
    listing.recursive ? 'below' : 'in'
  } ${where}${listing.ref === null ? '' : ` at ${listing.ref}`}${
    listing.truncated ? ` (showing ${listing.entries.length}; the list is truncated)` : ''
  }:`;
  const lines = listing.entries.map((entry) =>
    entry.type === 'dir'
      ? `${entry.path}/`
      : entry.type === 'file'
      ? `${entry.path}${entry.size === undefined ? '' : ` (${entry.size} bytes)`}`
      : `${entry.path} [${entry.type}]`
  );
  return [header, ...lines].join('\n');
}

/** Text for `public_repo_read_file`: the content, with a note when cut or binary. */
export function renderFile(file: GitHubFileContent): string {
  if (file.binary) return `[${file.path} is a binary file of ${file.sizeBytes} bytes; its content is not shown.]`;
  if (!file.truncated) return file.content;
  return `${file.content}\n\n[truncated: showing the first ${file.returnedBytes} of ${file.sizeBytes} bytes of ${file.path}]`;
}

/** Text for `public_repo_recent_commits`. */
export function renderCommits(commits: GitHubCommitSummary[]): string {
  if (commits.length === 0) return 'No commits found.';
  return commits
    .map(
      (commit) =>
        `${commit.sha.slice(0, 7)} ${commit.date ?? 'unknown date'} ${commit.authorLogin ?? commit.authorName ?? 'unknown'}: ${
          commit.subject
        }`
    )
    .join('\n');
}

/** Text for `public_repo_search_code`. */
export function renderSearch(result: GitHubCodeSearchResult): string {
  if (result.items.length === 0) return `No code matches "${result.query}".`;
  const header = `${result.totalCount} match${result.totalCount === 1 ? '' : 'es'} for "${result.query}"${
    result.items.length < result.totalCount ? ` (showing ${result.items.length})` : ''
  }${result.incompleteResults ? '; GitHub reports the results may be incomplete' : ''}:`;
  const blocks = result.items.map((item) =>
    [item.path, ...item.fragments.map((fragment) => `  > ${fragment.replace(/\s+/g, ' ').trim()}`)].join('\n')
  );
  return [header, ...blocks].join('\n');
}

function sizeNote(file: GitHubFileContent): string {
  return file.truncated ? `first ${file.returnedBytes} of ${file.sizeBytes} bytes` : `${file.sizeBytes} bytes`;
}
