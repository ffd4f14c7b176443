/** The npm package of the Claude Agent SDK, an optional peer dependency. */
export const CLAUDE_AGENT_SDK_PACKAGE = '@anthropic-ai/claude-agent-sdk';

/** The part of the SDK's `query()` result the adapter uses. */
export interface AgentSdkQuery extends AsyncIterable<unknown> {
  interrupt(): Promise<unknown>;
  close?(): void;
}

/** The part of the SDK module the adapter uses. */
export interface AgentSdkModule {
  query(parameters: { prompt: AsyncIterable<unknown>; options: Record<string, unknown> }): AgentSdkQuery;
}

// A parameter, not a literal: bundlers neither resolve nor inline the optional peer.
const importModule = (specifier: string): Promise<unknown> => import(/* @vite-ignore */ specifier);

let loaded: Promise<AgentSdkModule> | undefined;

/**
 * Loads the optional peer `@anthropic-ai/claude-agent-sdk` on first use. Rejects with a sentence
 * naming the package and how to install it when it is missing or is not the SDK.
 */
export function loadClaudeAgentSdk(): Promise<AgentSdkModule> {
  loaded ??= importModule(CLAUDE_AGENT_SDK_PACKAGE).then(
    (module) => {
      const query: unknown = (module as { query?: unknown }).query;
      if (typeof query !== 'function') throw new Error(`${CLAUDE_AGENT_SDK_PACKAGE} does not export query(); install version 0.3.x.`);
      return module as AgentSdkModule;
    },
    (error: unknown) => {
      throw new Error(
        `the Claude Agent SDK adapter needs the optional peer dependency ${CLAUDE_AGENT_SDK_PACKAGE}, which could not be loaded. Install it with: npm install ${CLAUDE_AGENT_SDK_PACKAGE}@^0.3.333`,
        { cause: error },
      );
    },
  );
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}
