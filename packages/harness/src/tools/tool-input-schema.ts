export type {
  InferToolInput,
  JsonSchemaToolInput,
  StandardSchemaWithJsonSchema,
  SuccessValue,
  ToolInputSchema,
  ToolInputValidationResult,
} from '../shared/types/schema.js';
