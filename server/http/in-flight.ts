// Sockets whose request is being answered. SeerBit's Node SDK writes a body on its GET with neither
// Content-Length nor Transfer-Encoding: Node's parser reads that body as the start of a second request and
// reports a parse error while the first one is still being answered. That error must not answer 400 over it.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";

const answering = new WeakMap<Duplex, ServerResponse>();
const closing = new WeakSet<Duplex>();

export function trackInFlight(req: IncomingMessage, res: ServerResponse): void {
  answering.set(req.socket, res);
}

/**
 * True when the socket's request is still being answered: the real answer goes out, then the connection
 * closes (what followed on it was not HTTP, so nothing more is read from it).
 */
export function closeAfterAnswer(socket: Duplex): boolean {
  const res = answering.get(socket);
  // Node detaches the response from its socket once the answer has gone out (its 'finish'); until then it is in flight,
  // even when end() was called at once (writableFinished turns true as soon as the bytes are handed to the socket).
  if (!res || res.socket === null) return false;
  if (!closing.has(socket)) {
    closing.add(socket);
    if (!res.headersSent) res.setHeader("Connection", "close");
    res.once("finish", () => socket.end());
  }
  return true;
}

/** No request on this socket is being answered, so an answer written straight to it is the only one. */
export function answerable(socket: Duplex): boolean {
  const res = answering.get(socket);
  return !res || res.writableFinished;
}
