// Each answered request counted by door and route template: the label values come from Owo's own routes (REST's
// patterns, tRPC's procedures, the app's top folders), never from the raw path, so a client cannot mint new series.
import "server-only";
import { readdirSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { countRequest } from "./series";

export type Door = "rest" | "trpc" | "page" | "probe" | "metrics" | "api";
type Named = { door: Door; route: string };

const names = new WeakMap<ServerResponse, Named>();

export function nameRequest(res: ServerResponse, door: Door, route: string): void {
  names.set(res, { door, route });
}

/** What the request was counted as (traces name their spans so too). */
export function routeOf(res: ServerResponse): Named {
  return names.get(res) ?? { door: "api", route: "/{unmatched}" };
}

const templates = new WeakMap<RegExp, string>();

/** /^\/api\/v2\/payments\/(?<reference>[^/]+)\/cancel$/ → /api/v2/payments/{reference}/cancel */
export function restTemplate(pattern: RegExp): string {
  let t = templates.get(pattern);
  if (t === undefined) {
    t = pattern.source
      .replace(/^\^|\$$/g, "")
      .replace(/\(\?<(\w+)>[^)]*\)/g, "{$1}")
      .replace(/v\[23\]/g, "v{2,3}")
      .replace(/\\(.)/g, "$1");
    templates.set(pattern, t);
  }
  return t;
}

let pageFolders: Set<string> | null = null;

/** The app's top-level page folders (route groups opened), read once: /checkout, /pay, /dashboard … */
function topFolders(): Set<string> {
  if (pageFolders) return pageFolders;
  const found = new Set<string>();
  const read = (dir: string) => {
    try {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        if (!e.isDirectory() || e.name.startsWith("[") || e.name.startsWith("_") || e.name === "api") continue;
        if (e.name.startsWith("(")) read(join(dir, e.name));
        else found.add(e.name);
      }
    } catch {
      // No app folder (an API-only process): every page is "other".
    }
  };
  read(join(process.cwd(), "app"));
  pageFolders = found;
  return found;
}

export function pageRoute([first]: string[]): string {
  if (first === undefined || first === "") return "/";
  if (first === "_next") return "/_next";
  if (first === "api") return "/api/{next}";
  return topFolders().has(first) ? `/${first}` : "/{other}";
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** Counts the request when its answer is finished (or its client went away). */
export function countWhenFinished(req: IncomingMessage, res: ServerResponse, started: bigint): void {
  res.once("close", () => {
    const named = routeOf(res);
    const method = METHODS.has(req.method ?? "") ? (req.method ?? "GET") : "OTHER";
    countRequest(named.door, named.route, method, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
  });
}
