export { createQuestionToolRegistry, QUESTION_TOOL_NAME, type QuestionToolOptions } from './create-question-tool-registry.js';
