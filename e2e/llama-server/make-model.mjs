// Writes a tiny qwen2-architecture GGUF with random weights for the end-to-end tests: the
// tokenizer is copied from llama.cpp's vocab-only test file (models/ggml-vocab-qwen2.gguf), the
// chat template (tool calling) from models/templates/Qwen-Qwen2.5-7B-Instruct.jinja. The weights
// are random, so the server's protocol is tested, never the answers.
// Usage: node make-model.mjs <vocab.gguf> <template.jinja> <out.gguf>
// GGUF v3: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

const [vocabPath, templatePath, outPath] = process.argv.slice(2);
if (!vocabPath || !templatePath || !outPath) {
  console.error('usage: node make-model.mjs <vocab.gguf> <template.jinja> <out.gguf>');
  process.exit(2);
}

const T = { u8: 0, i8: 1, u16: 2, i16: 3, u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9, u64: 10, i64: 11, f64: 12 };
const fixedSize = { [T.u8]: 1, [T.i8]: 1, [T.u16]: 2, [T.i16]: 2, [T.u32]: 4, [T.i32]: 4, [T.f32]: 4, [T.bool]: 1, [T.u64]: 8, [T.i64]: 8, [T.f64]: 8 };

/** The raw key/value entries of a GGUF file (key, type and the bytes of the value). */
function readKeyValues(buffer) {
  if (buffer.toString('latin1', 0, 4) !== 'GGUF') throw new Error(`${vocabPath} is not a GGUF file`);
  let offset = 8;
  const tensorCount = buffer.readBigUInt64LE(offset);
  const kvCount = Number(buffer.readBigUInt64LE(offset + 8));
  offset += 16;
  if (tensorCount !== 0n) throw new Error(`${vocabPath} has tensors; expected a vocab-only file`);
  const readString = () => {
    const length = Number(buffer.readBigUInt64LE(offset));
    const text = buffer.toString('utf8', offset + 8, offset + 8 + length);
    offset += 8 + length;
    return text;
  };
  const skipValue = (type) => {
    if (type === T.string) {
      offset += 8 + Number(buffer.readBigUInt64LE(offset));
    } else if (type === T.array) {
      const elementType = buffer.readUInt32LE(offset);
      const count = Number(buffer.readBigUInt64LE(offset + 4));
      offset += 12;
      if (fixedSize[elementType] !== undefined) offset += fixedSize[elementType] * count;
      else for (let index = 0; index < count; index += 1) skipValue(elementType);
    } else if (fixedSize[type] !== undefined) {
      offset += fixedSize[type];
    } else {
      throw new Error(`unknown GGUF value type ${type}`);
    }
  };
  const entries = [];
  for (let index = 0; index < kvCount; index += 1) {
    const key = readString();
    const type = buffer.readUInt32LE(offset);
    offset += 4;
    const start = offset;
    skipValue(type);
    entries.push({ key, type, value: buffer.subarray(start, offset) });
  }
  return entries;
}

const chunks = [];
let written = 0;
const push = (bytes) => {
  chunks.push(bytes);
  written += bytes.length;
};
const u32 = (value) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
};
const u64 = (value) => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(value));
  return bytes;
};
const f32 = (value) => {
  const bytes = Buffer.alloc(4);
  bytes.writeFloatLE(value);
  return bytes;
};
const str = (text) => {
  const bytes = Buffer.from(text, 'utf8');
  return Buffer.concat([u64(bytes.length), bytes]);
};

const vocab = readKeyValues(readFileSync(vocabPath)).filter(({ key }) => key.startsWith('tokenizer.') && key !== 'tokenizer.chat_template');
const tokens = vocab.find(({ key }) => key === 'tokenizer.ggml.tokens');
if (!tokens) throw new Error('the vocab file has no tokenizer.ggml.tokens');
const nVocab = Number(tokens.value.readBigUInt64LE(4));

const nEmbd = 128;
const nHead = 4;
const nHeadKv = 2;
const nFf = 256;
const nLayer = 2;
const nEmbdKv = (nEmbd / nHead) * nHeadKv;

const keyValues = [
  ['general.architecture', T.string, str('qwen2')],
  ['general.name', T.string, str('agent-assistant-e2e-random-qwen2')],
  ['general.alignment', T.u32, u32(32)],
  ['qwen2.context_length', T.u32, u32(4096)],
  ['qwen2.embedding_length', T.u32, u32(nEmbd)],
  ['qwen2.block_count', T.u32, u32(nLayer)],
  ['qwen2.feed_forward_length', T.u32, u32(nFf)],
  ['qwen2.attention.head_count', T.u32, u32(nHead)],
  ['qwen2.attention.head_count_kv', T.u32, u32(nHeadKv)],
  ['qwen2.attention.layer_norm_rms_epsilon', T.f32, f32(1e-6)],
  ['qwen2.rope.freq_base', T.f32, f32(1_000_000)],
  ...vocab.map(({ key, type, value }) => [key, type, value]),
  ['tokenizer.chat_template', T.string, str(readFileSync(templatePath, 'utf8'))],
];

// Tensors: [name, dims (ggml order: fastest first), kind]. Norms are ones (f32), matrices random f16.
const tensors = [
  ['token_embd.weight', [nEmbd, nVocab], 'random'],
  ['output_norm.weight', [nEmbd], 'ones'],
];
for (let layer = 0; layer < nLayer; layer += 1) {
  tensors.push(
    [`blk.${layer}.attn_norm.weight`, [nEmbd], 'ones'],
    [`blk.${layer}.attn_q.weight`, [nEmbd, nEmbd], 'random'],
    [`blk.${layer}.attn_k.weight`, [nEmbd, nEmbdKv], 'random'],
    [`blk.${layer}.attn_v.weight`, [nEmbd, nEmbdKv], 'random'],
    [`blk.${layer}.attn_output.weight`, [nEmbd, nEmbd], 'random'],
    [`blk.${layer}.ffn_norm.weight`, [nEmbd], 'ones'],
    [`blk.${layer}.ffn_gate.weight`, [nEmbd, nFf], 'random'],
    [`blk.${layer}.ffn_down.weight`, [nFf, nEmbd], 'random'],
    [`blk.${layer}.ffn_up.weight`, [nEmbd, nFf], 'random'],
  );
}

const GGML_F32 = 0;
const GGML_F16 = 1;
const align = (value) => Math.ceil(value / 32) * 32;
let dataOffset = 0;
const infos = tensors.map(([name, dims, kind]) => {
  const elements = dims.reduce((product, dim) => product * dim, 1);
  const type = kind === 'ones' ? GGML_F32 : GGML_F16;
  const info = { name, dims, kind, elements, type, offset: dataOffset, bytes: elements * (type === GGML_F32 ? 4 : 2) };
  dataOffset = align(dataOffset + info.bytes);
  return info;
});

push(Buffer.from('GGUF', 'latin1'));
push(u32(3));
push(u64(infos.length));
push(u64(keyValues.length));
for (const [key, type, value] of keyValues) push(Buffer.concat([str(key), u32(type), value]));
for (const info of infos) push(Buffer.concat([str(info.name), u32(info.dims.length), ...info.dims.map(u64), u32(info.type), u64(info.offset)]));
push(Buffer.alloc(align(written) - written));

// A fixed-seed xorshift, so the same file comes out every time.
let seed = 0x2545f491;
const random = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 0x1_0000_0000;
};
/** Half-precision bits of a small float (|value| < 1; no overflow or NaN handling needed here). */
const scratch = new DataView(new ArrayBuffer(4));
const toHalf = (value) => {
  scratch.setFloat32(0, value);
  const bits = scratch.getUint32(0);
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  if (exponent <= 0) return sign;
  return sign | (exponent << 10) | ((bits >>> 13) & 0x3ff);
};

for (const info of infos) {
  const bytes = Buffer.alloc(align(info.bytes));
  if (info.type === GGML_F32) new Float32Array(bytes.buffer, bytes.byteOffset, info.elements).fill(1);
  else {
    const halves = new Uint16Array(bytes.buffer, bytes.byteOffset, info.elements);
    for (let index = 0; index < info.elements; index += 1) halves[index] = toHalf((random() - 0.5) * 0.08);
  }
  push(bytes);
}

writeFileSync(`${outPath}.partial`, Buffer.concat(chunks));
renameSync(`${outPath}.partial`, outPath);
console.log(`${outPath}: qwen2, ${nLayer} layers, n_embd ${nEmbd}, vocab ${nVocab}, ${written} bytes`);
