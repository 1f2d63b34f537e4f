// The customer's pages' scripts and stylesheet, built once per process with esbuild: the checkout's from browser.ts,
// a payment link's form's from link-form.ts, and one stylesheet for both (app/globals.css, the facts', the receipt's
// and the business identity's modules, checkout.css, link.css), so the customer's way from a link to its checkout fetches it
// once. A few KB gzipped, against ~130 KB for Next's client runtime. Named by their content's hash, so a browser may
// keep them for a year.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { bundle } from "../bundling";

export type Asset = { path: string; type: string; body: Buffer };
export type CheckoutAssets = { script: Asset; linkScript: Asset; style: Asset };

/** Where the front serves them: outside /checkout/, so fetching them never counts against the page's per-IP limit. */
export const ASSET_PREFIX = "/_owo/";

const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

function asset(name: string, ext: string, type: string, body: Buffer): Asset {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 12);
  return { path: `${ASSET_PREFIX}${name}-${hash}.${ext}`, type, body };
}

const script = (entry: string) =>
  bundle({ entryPoints: [here(entry)], minify: true, format: "iife", platform: "browser", target: ["es2020", "safari14"] });

async function buildAssets(): Promise<CheckoutAssets> {
  const js = await script("./browser.ts");
  const linkJs = await script("./link-form.ts");
  const sheets = [
    "../../app/globals.css",
    "../../app/facts.module.css",
    "../../app/receipt.module.css",
    "../../app/business-identity.module.css",
    "./checkout.css",
    "./link.css",
  ];
  const css = await Promise.all(sheets.map((sheet) => readFile(here(sheet), "utf8")));
  const minified = await bundle({ stdin: { contents: css.join("\n"), loader: "css" }, minify: true, target: ["safari14"] });
  return {
    script: asset("checkout", "js", "text/javascript; charset=utf-8", js),
    linkScript: asset("pay", "js", "text/javascript; charset=utf-8", linkJs),
    style: asset("checkout", "css", "text/css; charset=utf-8", minified),
  };
}

let built: Promise<CheckoutAssets> | undefined;

/** Built on first use (start-up warms it), then kept; a failed build is tried again on the next request. */
export function checkoutAssets(): Promise<CheckoutAssets> {
  built ??= buildAssets().catch((err: unknown) => {
    built = undefined;
    throw err;
  });
  return built;
}
