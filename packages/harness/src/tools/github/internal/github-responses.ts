import * as v from '../../../shared/validation/index.js';
import { memo as lazy } from '../../../shared/schemas/lazy-schema.js';

const optionalString = () => v.optional(v.nullable(v.string()));
const optionalNumber = () => v.optional(v.nullable(v.number()));
const optionalBoolean = () => v.optional(v.nullable(v.boolean()));

const buildContentFile = () =>
  v.object({
    type: v.string(),
    path: v.string(),
    sha: v.string(),
    size: v.number(),
    encoding: optionalString(),
    content: optionalString(),
    download_url: optionalString(),
    html_url: optionalString(),
    target: optionalString(),
  });

/** `GET /repos/{owner}/{repo}`. */
export const repositorySchema = /* @__PURE__ */ lazy(() =>
  v.object({
    full_name: v.string(),
    html_url: v.string(),
    default_branch: v.string(),
    description: optionalString(),
    stargazers_count: optionalNumber(),
    forks_count: optionalNumber(),
    open_issues_count: optionalNumber(),
    language: optionalString(),
    license: v.optional(v.nullable(v.object({ spdx_id: optionalString(), name: optionalString() }))),
    topics: v.optional(v.nullable(v.array(v.string()))),
    archived: optionalBoolean(),
    fork: optionalBoolean(),
    pushed_at: optionalString(),
    updated_at: optionalString(),
  })
);

/** One item of `GET /repos/{owner}/{repo}/contents/{path}` for a directory. */
export const contentEntrySchema = /* @__PURE__ */ lazy(() =>
  v.object({ type: v.string(), path: v.string(), sha: v.string(), size: optionalNumber() })
);

/** `GET /repos/{owner}/{repo}/contents/{path}` for a file (also `/readme`). */
export const contentFileSchema = /* @__PURE__ */ lazy(buildContentFile);

/** `GET /repos/{owner}/{repo}/git/trees/{ref}?recursive=1`. */
export const treeSchema = /* @__PURE__ */ lazy(() =>
  v.object({
    sha: v.string(),
    tree: v.array(v.object({ path: v.string(), type: v.string(), sha: v.string(), size: optionalNumber() })),
    truncated: optionalBoolean(),
  })
);

const gitActor = () => v.optional(v.nullable(v.object({ name: optionalString(), date: optionalString() })));

/** `GET /repos/{owner}/{repo}/commits`. */
export const commitsSchema = /* @__PURE__ */ lazy(() =>
  v.array(
    v.object({
      sha: v.string(),
      html_url: optionalString(),
      commit: v.object({ message: v.string(), author: gitActor(), committer: gitActor() }),
      author: v.optional(v.nullable(v.object({ login: optionalString() }))),
    })
  )
);

/** `GET /search/code` with the text-match media type. */
export const codeSearchSchema = /* @__PURE__ */ lazy(() =>
  v.object({
    total_count: v.number(),
    incomplete_results: optionalBoolean(),
    items: v.array(
      v.object({
        path: v.string(),
        sha: optionalString(),
        html_url: optionalString(),
        score: optionalNumber(),
        text_matches: v.optional(v.nullable(v.array(v.object({ fragment: optionalString() })))),
      })
    ),
  })
);

/** The file shape, parsed. */
export type ContentFile = v.infer<ReturnType<typeof buildContentFile>>;
