// API.md's envelope, written the same way by every door that answers in JSON.
import type { ServerResponse } from "node:http";
import { ApiError } from "../api-error";

export function successJson(data: Record<string, unknown>): string {
  return JSON.stringify({ status: "SUCCESS", data });
}

export function errorJson(err: ApiError): string {
  return JSON.stringify({ status: "ERROR", data: { code: err.code, message: err.message, errors: err.errors } });
}

/** Any thrown value as an ApiError; the unexpected become S500 naming only the request id. */
export function asApiError(err: unknown, requestId: string): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError("S500", `Unexpected error; quote request id ${requestId} to support`);
}

export function sendJson(res: ServerResponse, status: number, json: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(json));
  res.setHeader("Cache-Control", "no-store");
  res.statusCode = status;
  res.end(json);
}

export function sendError(res: ServerResponse, err: ApiError): void {
  sendJson(res, err.httpStatus, errorJson(err), err.headers);
}
