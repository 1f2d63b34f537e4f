// OWO_MAX_CONNECTIONS_PER_IP: one address cannot hold every socket the process has. Loopback is exempt, so a local
// proxy (whose connections all come from 127.0.0.1) and the bench still work; behind such a proxy the proxy caps.
import type { Server } from "node:http";
import type { Socket } from "node:net";

function isLoopback(address: string): boolean {
  return address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
}

export function capConnectionsPerIp(server: Server, cap: number): void {
  if (cap <= 0) return;
  const open = new Map<string, number>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || isLoopback(address)) return;
    const count = open.get(address) ?? 0;
    if (count >= cap) {
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once("close", () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
