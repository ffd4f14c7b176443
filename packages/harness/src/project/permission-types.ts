/** What a permission rule decides for a tool call: run it, ask the user first, or refuse it. */
export type PermissionAction = 'allow' | 'ask' | 'deny';

/** One command-pattern rule of a tool (the bash tool's `{"git push*": "ask"}`), in file order. */
export interface PermissionPatternRule {
  /** The pattern as written, `*` matching any run of characters. */
  readonly pattern: string;
  readonly action: PermissionAction;
}

/**
 * The permission rules of one agent, from its frontmatter `permission` key: per tool name either
 * one action for every call, or command-pattern rules matched against the call's command.
 */
export interface PermissionRuleSet {
  readonly tools: ReadonlyMap<string, PermissionAction | readonly PermissionPatternRule[]>;
}
