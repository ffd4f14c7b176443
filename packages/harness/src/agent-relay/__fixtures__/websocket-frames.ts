import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

// Just enough RFC 6455 for the loopback fakes: the server handshake, unmasked server frames, and
// reading masked client text frames (unfragmented, < 64 KiB). Close and ping are answered.

const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Completes the server side of a WebSocket upgrade. `false` when the request is not one. */
export function acceptWebSocket(request: IncomingMessage, socket: Duplex): boolean {
  const key = request.headers['sec-websocket-key'];
  if (typeof key !== 'string') return false;
  const accept = createHash('sha1').update(key + WS_GUID).digest('base64');
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  socket.on('error', () => socket.destroy());
  return true;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const length = payload.length;
  if (length < 126) return Buffer.concat([Buffer.from([0x80 | opcode, length]), payload]);
  if (length < 65_536) return Buffer.concat([Buffer.from([0x80 | opcode, 126, length >> 8, length & 0xff]), payload]);
  const header = Buffer.alloc(10);
  header[0] = 0x80 | opcode;
  header[1] = 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  return Buffer.concat([header, payload]);
}

/** Sends one text frame (server to client, unmasked). */
export function sendTextFrame(socket: Duplex, text: string): void {
  socket.write(frame(0x1, Buffer.from(text, 'utf8')));
}

/** Calls `onText` for each text frame the client sends; answers ping and close. */
export function readTextFrames(socket: Duplex, onText: (text: string) => void): void {
  let buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      if (buffer.length < 2) return;
      const opcode = buffer[0]! & 0x0f;
      let length = buffer[1]! & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (buffer.length < 4) return;
        length = buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        socket.destroy();
        return;
      }
      const masked = (buffer[1]! & 0x80) !== 0;
      const total = offset + (masked ? 4 : 0) + length;
      if (buffer.length < total) return;
      const mask = masked ? buffer.subarray(offset, offset + 4) : undefined;
      const payload = Buffer.from(buffer.subarray(total - length, total));
      if (mask !== undefined) for (let index = 0; index < payload.length; index += 1) payload[index]! ^= mask[index % 4]!;
      buffer = buffer.subarray(total);
      if (opcode === 0x8) {
        socket.end(frame(0x8, Buffer.alloc(0)));
        return;
      }
      if (opcode === 0x9) socket.write(frame(0xa, payload));
      if (opcode === 0x1) onText(payload.toString('utf8'));
    }
  });
}
