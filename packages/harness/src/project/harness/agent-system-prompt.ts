import type { ProjectAgent, ProjectInstructions } from '../agent-project-types.js';

/**
 * An agent's system prompt: its file's body, then the project instructions as one section after
 * it (`AGENTS.md`, or `CLAUDE.md`), headed by the file's name. Either may be empty.
 */
export function agentSystemPrompt(agent: ProjectAgent, instructions: ProjectInstructions | null): string {
  const parts = agent.prompt === '' ? [] : [agent.prompt];
  if (instructions !== null && instructions.text.trim() !== '') {
    parts.push(`# Project instructions (${instructions.info.source})\n\n${instructions.text.trim()}`);
  }
  return parts.join('\n\n');
}
