// The scripted turn every framework runs: the model asks for `add` twice (one call per step), then answers.
export const STEPS = 3;
export const PROMPT = 'What is 1 + 2 + 3?';
export const ADD_ARGS = [
  { a: 1, b: 2 },
  { a: 3, b: 3 },
];
export const ANSWER = '6';
export const ADD_JSON_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
};
