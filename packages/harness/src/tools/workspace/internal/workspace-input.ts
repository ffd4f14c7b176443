/** One input field: its JSON Schema and the rules `validateWorkspaceInput` applies. */
export type WorkspaceFieldSpec =
  | { type: 'string'; description: string; required?: boolean; minLength?: number; maxLength?: number }
  | { type: 'integer'; description: string; required?: boolean; minimum: number; maximum: number };

/** The fields of one tool's input object. */
export type WorkspaceInputSpec = Readonly<Record<string, WorkspaceFieldSpec>>;

/** Validated input: strings and integers by field name (absent optional fields are missing). */
export type WorkspaceInput = Record<string, string | number>;

/** The outcome of validating a tool input. */
export type WorkspaceInputResult = { ok: true; value: WorkspaceInput } | { ok: false; field: string; message: string };

/** The JSON Schema of an input spec, as offered to the model. Built from the same spec as validation. */
export function toJsonSchema(spec: WorkspaceInputSpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(spec)) {
    const { required: isRequired, ...schema } = field;
    properties[name] = schema;
    if (isRequired === true) required.push(name);
  }
  return { type: 'object', properties, required, additionalProperties: false };
}

/**
 * Checks `input` against `spec`. Integers may arrive as integral floats (`5.0`); unknown fields,
 * wrong types and out-of-range values fail with a message naming the field and what it accepts.
 */
export function validateWorkspaceInput(spec: WorkspaceInputSpec, input: unknown): WorkspaceInputResult {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, field: '(input)', message: 'the input must be a JSON object.' };
  }
  const record = input as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (!Object.hasOwn(spec, name) && record[name] !== undefined) {
      const known = Object.keys(spec).join(', ');
      return { ok: false, field: name, message: `unknown field "${name}"; the accepted fields are: ${known}.` };
    }
  }
  const value: WorkspaceInput = {};
  for (const [name, field] of Object.entries(spec)) {
    const given = record[name];
    if (given === undefined || given === null) {
      if (field.required === true) return { ok: false, field: name, message: `"${name}" is required (${describe(field)}).` };
      continue;
    }
    const problem = field.type === 'string' ? checkString(field, given) : checkInteger(field, given);
    if (problem !== undefined) return { ok: false, field: name, message: `"${name}" ${problem}` };
    value[name] = given as string | number;
  }
  return { ok: true, value };
}

function checkString(field: Extract<WorkspaceFieldSpec, { type: 'string' }>, given: unknown): string | undefined {
  if (typeof given !== 'string') return `must be ${describe(field)}; got ${typeName(given)}.`;
  if (field.minLength !== undefined && given.trim().length < field.minLength) return `must be ${describe(field)}; got an empty string.`;
  if (field.maxLength !== undefined && given.length > field.maxLength) {
    return `must be at most ${field.maxLength} characters; got ${given.length}.`;
  }
  return undefined;
}

function checkInteger(field: Extract<WorkspaceFieldSpec, { type: 'integer' }>, given: unknown): string | undefined {
  if (typeof given !== 'number' || !Number.isFinite(given)) return `must be ${describe(field)}; got ${typeName(given)}.`;
  if (!Number.isInteger(given)) return `must be a whole number (${describe(field)}); got ${given}.`;
  if (given < field.minimum || given > field.maximum) return `must be ${describe(field)}; got ${given}.`;
  return undefined;
}

function describe(field: WorkspaceFieldSpec): string {
  if (field.type === 'integer') return `an integer from ${field.minimum} to ${field.maximum}`;
  return field.minLength !== undefined && field.minLength > 0 ? 'a non-empty string' : 'a string';
}

function typeName(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
