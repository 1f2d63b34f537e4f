// The HTTP server under every provider test double: the provider's API routes (where armed 5xx and hang faults
// strike), and the double's own control routes under /_double (the customer's actions, faults, the webhook log),
// which no fault touches. A double runs as its own process on 127.0.0.1 (../double-cli.ts listens for it).
import { createServer, type IncomingMessage, type Server } from "node:http";
import { faultRequest, type FaultPlan } from "./faults";
import type { WebhookOutbox } from "./webhook-outbox";

export type DoubleRequest = { headers: IncomingMessage["headers"]; raw: string; json: unknown; query: URLSearchParams };
export type DoubleAnswer = { status: number; body: unknown };
export type DoubleRoute = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: RegExp;
  handle: (params: string[], req: DoubleRequest) => DoubleAnswer | Promise<DoubleAnswer>;
};

export type DoubleServer = { server: Server; close: () => Promise<void> };

const MAX_BODY_BYTES = 64 * 1024;

export function createDoubleServer(opts: {
  api: DoubleRoute[];
  control: DoubleRoute[];
  /** What GET /_double answers besides the webhook URL: the provider, the keys the double takes, what it holds. */
  about: () => Record<string, unknown>;
  faults: FaultPlan;
  outbox: WebhookOutbox;
  /** The provider's own words for an internal error, what a 5xx fault answers. */
  serverError: DoubleAnswer;
  notFound: DoubleAnswer;
  /** The double's own timers to end when it closes (refunds still waiting to be paid out). */
  stop?: () => void;
}): DoubleServer {
  // The API requests the double was sent, method and path, for tests that count what Owo asked (the newest 10,000).
  const requests: string[] = [];
  // Requests a hang fault holds: answered (the provider's internal error) only when a test releases them.
  let hung: (() => void)[] = [];
  const control: DoubleRoute[] = [
    ...opts.control,
    { method: "GET", path: /^\/_double$/, handle: () => ({ status: 200, body: { ...opts.about(), webhookUrl: opts.outbox.url } }) },
    { method: "GET", path: /^\/_double\/requests$/, handle: () => ({ status: 200, body: { requests } }) },
    {
      method: "POST",
      path: /^\/_double\/faults$/,
      handle: (_p, req) => {
        const f = faultRequest.safeParse(req.json);
        if (!f.success) return { status: 400, body: { error: f.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") } };
        opts.faults.arm(f.data);
        return { status: 200, body: { armed: opts.faults.list() } };
      },
    },
    {
      method: "POST",
      path: /^\/_double\/faults\/release$/,
      handle: () => {
        const held = hung;
        hung = [];
        for (const answerHeld of held) answerHeld();
        return { status: 200, body: { released: held.length } };
      },
    },
    { method: "DELETE", path: /^\/_double\/faults$/, handle: () => (opts.faults.clear(), { status: 200, body: { armed: [] } }) },
    {
      method: "GET",
      path: /^\/_double\/webhooks$/,
      handle: async () => (await opts.outbox.settled(), { status: 200, body: { webhooks: opts.outbox.log } }),
    },
    {
      method: "POST",
      path: /^\/_double\/webhooks\/release$/,
      handle: () => ({ status: 200, body: { released: opts.outbox.releaseHeld() } }),
    },
    {
      method: "POST",
      path: /^\/_double\/webhooks\/replay$/,
      handle: () => ({ status: 200, body: { replayed: opts.outbox.replayLast() } }),
    },
    {
      method: "PUT",
      path: /^\/_double\/webhook-url$/,
      handle: (_p, req) => {
        const url = (req.json as { url?: unknown } | null)?.url;
        if (typeof url !== "string" || !/^https?:\/\//.test(url)) return { status: 400, body: { error: "url: must be an http(s) URL" } };
        opts.outbox.url = url;
        return { status: 200, body: { url } };
      },
    },
  ];

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY_BYTES) chunks.push(c);
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://double");
      const raw = Buffer.concat(chunks).toString("utf8");
      let json: unknown = undefined;
      try {
        json = raw === "" ? undefined : JSON.parse(raw);
      } catch {
        json = undefined;
      }
      const isControl = url.pathname.startsWith("/_double");
      const answer = (a: DoubleAnswer) => {
        res.writeHead(a.status, { "content-type": "application/json; charset=utf-8" });
        res.end(JSON.stringify(a.body));
      };
      if (!isControl) {
        requests.push(`${req.method} ${url.pathname}`);
        if (requests.length > 10_000) requests.shift();
        const fault = opts.faults.take(["5xx", "hang", "disconnect"], url.pathname);
        // Not answered until a test releases it (POST /_double/faults/release): the caller's own timeout may end it first.
        if (fault === "hang") return void hung.push(() => answer(opts.serverError));
        if (fault === "disconnect") return void req.socket.destroy(); // the connection drops with no answer at all
        if (fault === "5xx") return answer(opts.serverError);
      }
      if (size > MAX_BODY_BYTES) return answer({ status: 413, body: { status: false, message: "Request entity too large" } });
      // The request is done as asked; only its answer is lost on the way back.
      const lost = isControl ? null : opts.faults.take(["processed-then-5xx", "processed-then-hang"], url.pathname);
      const reply = (a: DoubleAnswer) =>
        lost === "processed-then-hang" ? undefined : answer(lost === "processed-then-5xx" ? opts.serverError : a);
      const routes = isControl ? control : opts.api;
      for (const r of routes) {
        const m = url.pathname.match(r.path);
        if (!m || r.method !== req.method) continue;
        Promise.resolve()
          .then(() => r.handle(m.slice(1).map(decodeURIComponent), { headers: req.headers, raw, json, query: url.searchParams }))
          .then(reply, (err: unknown) => answer({ status: 500, body: { error: err instanceof Error ? err.message : String(err) } }));
        return;
      }
      answer(opts.notFound);
    });
  });
  return {
    server,
    close: async () => {
      opts.stop?.();
      server.closeAllConnections(); // hung requests (the hang fault) end here
      await new Promise((r) => server.close(r));
    },
  };
}
