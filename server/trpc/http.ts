/**
 * The tRPC door over HTTP. tRPC's Node adapter turns every call into Fetch requests, streams and abort signals:
 * on Node 20 that machinery cost more than the payment itself (bench/README.md). So, in three tiers:
 * - one plain call (a query by GET, a mutation by POST with a JSON body of declared size) is answered here, as
 *   tRPC's own resolveResponse answers a single call, from tRPC's own error shaping and transformer;
 * - any other call whose body fits the limit goes to tRPC's fetch handler, with the body already read;
 * - the rest (streamed answers, subscriptions, unsized or oversized bodies, odd paths) to tRPC's Node adapter.
 * server/trpc/http.test.ts holds all three to the bytes tRPC's own adapter answers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import {
  getErrorShape,
  getHTTPStatusCode,
  getProcedureAtPath,
  getTRPCErrorFromUnknown,
  transformTRPCResponse,
  type TRPCError,
  type TRPCResponse,
} from "@trpc/server/unstable-core-do-not-import";
import { log } from "../logger";
import { isJsonContentType, MAX_BODY_BYTES, readBody } from "../http/request-body";
import { contextFromRequest } from "./context";
import type { Context } from "./init";
import { appRouter } from "./root";

const BASE_PATH = "/api/trpc/";
const requestIds = new WeakMap<IncomingMessage, string>();

function onError({ error, path }: { error: TRPCError; path?: string }) {
  if (error.code === "INTERNAL_SERVER_ERROR") log.error({ err: error.cause ?? error, path }, "trpc procedure failed");
}

const nodeAdapter = createHTTPHandler({
  router: appRouter,
  basePath: BASE_PATH,
  maxBodySize: MAX_BODY_BYTES,
  createContext: ({ req, res }) => contextFromRequest(req, res, requestIds.get(req) ?? "unknown"),
  onError,
});

/** The URL tRPC's adapter would see, when its whole answer is one JSON document and the body can be read first. */
function plainCallUrl(req: IncomingMessage): URL | null {
  if (req.method !== "GET" && req.method !== "POST") return null;
  if (
    req.headers["trpc-accept"] !== undefined ||
    req.headers["last-event-id"] !== undefined ||
    (req.headers.accept ?? "").includes("text/event-stream")
  )
    return null;
  if (req.method === "POST") {
    const declared = req.headers["content-length"];
    if (declared === undefined || !/^\d+$/.test(declared) || Number(declared) > MAX_BODY_BYTES) return null;
  }
  const encrypted = "encrypted" in req.socket && req.socket.encrypted;
  try {
    const url = new URL(req.url ?? "/", `${encrypted ? "https" : "http"}://${req.headers.host ?? "localhost"}`);
    return url.pathname.startsWith(BASE_PATH) && !url.pathname.endsWith("/") ? url : null;
  } catch {
    return null;
  }
}

function send(res: ServerResponse, status: number, json: string) {
  if (res.statusCode === 200) res.statusCode = status;
  res.setHeader("content-type", "application/json");
  res.setHeader("vary", "trpc-accept, accept");
  res.setHeader("content-length", Buffer.byteLength(json));
  res.end(json);
}

/** One call, not batched, to a known procedure by its own method, with an input that parses: answered here. */
async function answerDirectly(
  req: IncomingMessage,
  res: ServerResponse,
  requestId: string,
  url: URL,
  body: Buffer | undefined,
): Promise<boolean> {
  if (url.searchParams.has("batch") || url.searchParams.has("connectionParams")) return false;
  if (req.method === "POST" && !isJsonContentType(req)) return false;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname.slice(BASE_PATH.length));
  } catch {
    return false;
  }
  const procedure = await getProcedureAtPath(appRouter, path);
  if (!procedure) return false;
  const type = procedure._def.type;
  if (type === "query" ? req.method !== "GET" : type !== "mutation" || req.method !== "POST") return false;
  const config = appRouter._def._config;
  let input: unknown;
  try {
    const query = url.searchParams.get("input");
    const json: unknown = body ? JSON.parse(body.toString("utf8")) : query ? JSON.parse(query) : undefined;
    input = json === undefined ? undefined : config.transformer.input.deserialize(json);
  } catch {
    return false; // tRPC words its own parse errors
  }
  let ctx: Context | undefined;
  let answer: TRPCResponse;
  try {
    ctx = await contextFromRequest(req, res, requestId);
    answer = { result: { data: await procedure({ path, getRawInput: async () => input, ctx, type, signal: undefined, batchIndex: 0 }) } };
  } catch (cause) {
    const error = getTRPCErrorFromUnknown(cause);
    onError({ error, path });
    answer = { error: getErrorShape({ config, ctx, error, input, path, type }) };
  }
  send(res, getHTTPStatusCode([answer]), JSON.stringify(transformTRPCResponse(config, answer)));
  return true;
}

export async function serveTrpc(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  const url = plainCallUrl(req);
  if (url === null) {
    requestIds.set(req, requestId);
    return nodeAdapter(req, res);
  }
  const body = req.method === "POST" ? await readBody(req) : undefined;
  if (await answerDirectly(req, res, requestId, url, body)) return;
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) headers.append(name, v);
  }
  const response = await fetchRequestHandler({
    endpoint: BASE_PATH,
    req: new Request(url, { method: req.method, headers, body: body ? new Uint8Array(body) : undefined }),
    router: appRouter,
    createContext: () => contextFromRequest(req, res, requestId),
    onError,
  });
  if (res.statusCode === 200) res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!(response.headers.get("content-type") ?? "").startsWith("application/json") && response.body) {
    Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>).pipe(res);
    return;
  }
  const text = await response.text();
  res.setHeader("content-length", Buffer.byteLength(text));
  res.end(text);
}
