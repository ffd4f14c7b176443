/**
 * @module context/packets
 * Context packets: files and line ranges chosen by a manifest, under a byte budget, with hashes
 * and an honest list of what was left out — as a function, a tool and `agent-assistant context packet`.
 */
export { buildContextPacket } from './build-context-packet.js';
export { createContextPacketToolRegistry, CONTEXT_PACKET_TOOL_NAME, type ContextPacketToolOptions } from './create-context-packet-tool-registry.js';
export { ContextPacketError, type ContextPacketErrorDetails, type ContextPacketErrorReason } from './context-packet-error.js';
export { CONTEXT_PACKET_LIMITS } from './context-packet-limits.js';
export { readContextPacketSource, type ReadContextPacketSourceOptions } from './read-context-packet-source.js';
export type {
  ContextPacket,
  ContextPacketManifest,
  ContextPacketOmission,
  ContextPacketOmissionReason,
  ContextPacketOptions,
  ContextPacketRepresentation,
  ContextPacketResult,
  ContextPacketSelection,
  ContextPacketSource,
  ContextPacketVfs,
} from './context-packet-types.js';
