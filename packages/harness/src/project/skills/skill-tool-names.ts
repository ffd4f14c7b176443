/** The name of the tool that loads a skill's instructions and files. */
export const SKILL_TOOL_NAME = 'skill';
