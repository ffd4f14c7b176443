export type { InferToolInput, JsonSchemaToolInput, SuccessValue, ToolInputSchema, ToolInputValidationResult } from '../shared/types/schema.js';
