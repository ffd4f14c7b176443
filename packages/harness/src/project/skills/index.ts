export { createSkillToolRegistry, type SkillToolOptions, type SkillToolSkill } from './create-skill-tool-registry.js';
export { SKILL_TOOL_NAME } from './skill-tool-names.js';
