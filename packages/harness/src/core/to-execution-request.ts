import type { HarnessToolDefinition } from '../shared/types/tools.js';
import type { HarnessTurnInput } from '../shared/types/turn-input.js';
import type { ExecutionRequest, ExecutionRequirements, ExecutionToolDescriptor } from '../execution/types.js';

/** Builds the plain-JSON request a backend receives for a turn. */
export function toExecutionRequest(
  input: HarnessTurnInput,
  options: { tools?: HarnessToolDefinition[]; requirements?: ExecutionRequirements; timeoutMs?: number } = {},
): ExecutionRequest {
  const request: ExecutionRequest = {
    assistantId: input.assistantId,
    turnId: input.turnId,
    message: input.message,
    instructions: input.instructions,
  };
  if (input.workspaceId !== undefined) request.workspaceId = input.workspaceId;
  if (input.sessionId !== undefined) request.sessionId = input.sessionId;
  if (input.userId !== undefined) request.userId = input.userId;
  if (input.threadId !== undefined) request.threadId = input.threadId;
  if (input.context !== undefined) request.context = input.context;
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
