import * as z from '../../../shared/validation/index.js';

/** Builds a schema on first use, so importing the package does not construct it. */
/* @__NO_SIDE_EFFECTS__ */
function lazy<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

const optionalString = () => z.optional(z.nullable(z.string()));
const optionalNumber = () => z.optional(z.nullable(z.number()));
const optionalBoolean = () => z.optional(z.nullable(z.boolean()));

const buildContentFile = () =>
  z.object({
    type: z.string(),
    path: z.string(),
    sha: z.string(),
    size: z.number(),
    encoding: optionalString(),
    content: optionalString(),
    download_url: optionalString(),
    html_url: optionalString(),
    target: optionalString(),
  });

/** `GET /repos/{owner}/{repo}`. */
export const repositorySchema = /* @__PURE__ */ lazy(() =>
  z.object({
    full_name: z.string(),
    html_url: z.string(),
    default_branch: z.string(),
    description: optionalString(),
    stargazers_count: optionalNumber(),
    forks_count: optionalNumber(),
    open_issues_count: optionalNumber(),
    language: optionalString(),
    license: z.optional(z.nullable(z.object({ spdx_id: optionalString(), name: optionalString() }))),
    topics: z.optional(z.nullable(z.array(z.string()))),
    archived: optionalBoolean(),
    fork: optionalBoolean(),
    pushed_at: optionalString(),
    updated_at: optionalString(),
  })
);

/** One item of `GET /repos/{owner}/{repo}/contents/{path}` for a directory. */
export const contentEntrySchema = /* @__PURE__ */ lazy(() =>
  z.object({ type: z.string(), path: z.string(), sha: z.string(), size: optionalNumber() })
);

/** `GET /repos/{owner}/{repo}/contents/{path}` for a file (also `/readme`). */
export const contentFileSchema = /* @__PURE__ */ lazy(buildContentFile);

/** `GET /repos/{owner}/{repo}/git/trees/{ref}?recursive=1`. */
export const treeSchema = /* @__PURE__ */ lazy(() =>
  z.object({
    sha: z.string(),
    tree: z.array(z.object({ path: z.string(), type: z.string(), sha: z.string(), size: optionalNumber() })),
    truncated: optionalBoolean(),
  })
);

const gitActor = () => z.optional(z.nullable(z.object({ name: optionalString(), date: optionalString() })));

/** `GET /repos/{owner}/{repo}/commits`. */
export const commitsSchema = /* @__PURE__ */ lazy(() =>
  z.array(
    z.object({
      sha: z.string(),
      html_url: optionalString(),
      commit: z.object({ message: z.string(), author: gitActor(), committer: gitActor() }),
      author: z.optional(z.nullable(z.object({ login: optionalString() }))),
    })
  )
);

/** `GET /search/code` with the text-match media type. */
export const codeSearchSchema = /* @__PURE__ */ lazy(() =>
  z.object({
    total_count: z.number(),
    incomplete_results: optionalBoolean(),
    items: z.array(
      z.object({
        path: z.string(),
        sha: optionalString(),
        html_url: optionalString(),
        score: optionalNumber(),
        text_matches: z.optional(z.nullable(z.array(z.object({ fragment: optionalString() })))),
      })
    ),
  })
);

/** The file shape, parsed. */
export type ContentFile = z.infer<ReturnType<typeof buildContentFile>>;
