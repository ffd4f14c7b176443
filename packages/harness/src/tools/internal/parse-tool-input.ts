// The schema plumbing lives in core (structured final output uses it too); tools keep their names.
export {
  isPromiseLike,
  parseSchemaValue as parseToolInput,
  type ParsedSchemaValue as ParsedToolInput,
  type SchemaIssue as ToolInputIssue,
} from '../../core/output/parse-schema-value.js';
