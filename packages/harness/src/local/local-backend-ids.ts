/** The CLI backends this package has presets for. */
export const LOCAL_BACKEND_IDS = /* @__PURE__ */ Object.freeze(['claude-code', 'codex', 'gemini-cli', 'opencode', 'pi', 'copilot', 'crush', 'goose', 'cursor'] as const);

/** One of {@link LOCAL_BACKEND_IDS}. */
export type LocalBackendId = (typeof LOCAL_BACKEND_IDS)[number];
