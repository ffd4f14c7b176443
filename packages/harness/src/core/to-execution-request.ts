import type { HarnessToolDefinition } from '../shared/types/tools.js';
import type { HarnessInstructions, HarnessTurnInput } from '../shared/types/turn-input.js';
import type { HarnessOutputFormat } from './types/model.js';
import { outputInstructions } from './output/resolve-output.js';
import type { ExecutionRequest, ExecutionRequirements, ExecutionToolDescriptor } from '../execution/types.js';

/**
 * Builds the plain-JSON request a backend receives for a turn. With `output` (a structured
 * answer's JSON Schema), the developer prompt ends with the instruction to answer with only a
 * JSON value matching it.
 */
export function toExecutionRequest(
  input: HarnessTurnInput,
  options: {
    tools?: HarnessToolDefinition[];
    requirements?: ExecutionRequirements;
    timeoutMs?: number;
    /** The JSON Schema of a structured final answer; appended to the developer prompt as an instruction. @default undefined */
    output?: Pick<HarnessOutputFormat, 'jsonSchema'>;
  } = {},
): ExecutionRequest {
  const request: ExecutionRequest = {
    assistantId: input.assistantId,
    turnId: input.turnId,
    message: input.message,
    instructions: options.output === undefined ? input.instructions : withOutputInstructions(input.instructions, options.output),
  };
  if (input.workspaceId !== undefined) request.workspaceId = input.workspaceId;
  if (input.sessionId !== undefined) request.sessionId = input.sessionId;
  if (input.userId !== undefined) request.userId = input.userId;
  if (input.threadId !== undefined) request.threadId = input.threadId;
  if (input.context !== undefined) request.context = input.context;
  if (input.history !== undefined && input.history.length > 0) request.history = input.history;
  if (options.tools !== undefined && options.tools.length > 0) request.tools = options.tools.map(toDescriptor);
  if (options.requirements !== undefined) request.requirements = options.requirements;
  if (options.timeoutMs !== undefined) request.timeoutMs = options.timeoutMs;
  if (input.metadata !== undefined) request.metadata = input.metadata;
  return request;
}

function toDescriptor(tool: HarnessToolDefinition): ExecutionToolDescriptor {
  const { requiresApproval, ...rest } = tool;
  return requiresApproval === undefined ? rest : { ...rest, requiresApproval: requiresApproval !== false };
}

function withOutputInstructions(instructions: HarnessInstructions, output: Pick<HarnessOutputFormat, 'jsonSchema'>): HarnessInstructions {
  const developer = instructions.developerPrompt?.trim() ?? '';
  const asked = outputInstructions(output);
  return { ...instructions, developerPrompt: developer === '' ? asked : `${developer}\n\n${asked}` };
}
