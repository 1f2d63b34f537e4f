// The document around every page a customer sees without Next (the checkout, a payment link's form and done page):
// one hashed stylesheet, at most one script file, and a CSP that allows no inline script or style at all.
import type { ServerResponse } from "node:http";
import type { Asset } from "./assets";
import { html, type Html } from "./html";

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // The dial code's QR image is a data: URL drawn by the server.
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

export type CustomerPage = { title: string; style: Asset; script: Asset | null; body: Html };

export function customerDocument({ title, style, script, body }: CustomerPage): string {
  return html`<!DOCTYPE html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <title>${title}</title>
        <link rel="icon" href="/favicon.ico" />
        <link rel="stylesheet" href="${style.path}" />
        ${script && html`<script src="${script.path}" defer></script>`}
      </head>
      <body>
        ${body}
      </body>
    </html> `.text;
}

/** A customer's page is never cached: it tells the state of a payment or a link as it stands. */
export function sendPage(res: ServerResponse, status: number, page: string, headers: Record<string, string> = {}): void {
  res.statusCode = status;
  res.setHeader("Content-Type", "text/html; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(page));
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Security-Policy", CSP);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.end(page);
}
