// A callback receiver for tests: a real HTTP server on this machine that records what it is sent and answers as told.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type Received = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
/** A status to answer with, optionally after a pause or with a Location; "hang" never answers. */
export type Answer = number | { status: number; afterMs?: number; location?: string } | "hang";

export type Receiver = {
  port: number;
  url: (path?: string) => string;
  received: Received[];
  /** TCP connections accepted, requests or not. */
  connections: () => number;
  /** Requests being answered right now. */
  inFlight: () => number;
  maxInFlight: () => number;
  stop: () => Promise<void>;
};

export async function startReceiver(answer: (r: Received, index: number) => Answer = () => 200, host = "127.0.0.1"): Promise<Receiver> {
  const received: Received[] = [];
  let connections = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      const r = { path: req.url ?? "", headers: req.headers, body, at: Date.now() };
      received.push(r);
      const a = answer(r, received.length - 1);
      const reply = (status: number, location?: string) => {
        inFlight--;
        res.writeHead(status, { "content-type": "text/plain", ...(location ? { location } : {}) }).end(`answered ${status}`);
      };
      if (a === "hang") return;
      if (typeof a === "number") return reply(a);
      setTimeout(() => reply(a.status, a.location), a.afterMs ?? 0);
    });
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host;
  return {
    port,
    url: (path = "/callback") => `http://${shownHost}:${port}${path}`,
    received,
    connections: () => connections,
    inFlight: () => inFlight,
    maxInFlight: () => maxInFlight,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
