// Where a page request came from, as the front decided it (client address honouring OWO_TRUST_PROXY, the browser's description).
import { headers } from "next/headers";
import type { Origin } from "@/server/users/security-notices";

export async function requestOrigin(): Promise<Origin> {
  const h = await headers();
  return { ip: h.get("x-owo-client-ip"), userAgent: h.get("user-agent") };
}
