// Server actions are public POST endpoints: anyone may post any arguments to them. Every action of the build, found
// in Next's own manifest, answers arguments of every wrong shape with a plain refusal, never a 500.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "./fixtures";

type Manifest = { node: Record<string, { workers: Record<string, unknown>; filename: string; exportedName: string }> };
const manifest = JSON.parse(
  readFileSync(join(process.env.OWO_NEXT_DIST || ".next", "server", "server-reference-manifest.json"), "utf8"),
) as Manifest;

/** A page that carries the action: "app/(dashboard)/account/page" → "/account", "app/signin/page" → "/signin". */
const pageOf = (worker: string) =>
  worker
    .replace(/^app/, "")
    .replace(/\/page$/, "")
    .replace(/\/\([^)]+\)/g, "")
    .replace(/\[[^\]]+\]/g, "x") || "/";

const SHAPES: unknown[] = [
  [],
  [null],
  [{}],
  [{ name: 1, email: [], password: {}, invite: 5 }],
  [1, 2, 3],
  [[["deep"]]],
  ["x", null],
  ["x", "y"],
];

test("every server action refuses arguments of every wrong shape in words, never with a 500", async ({ page, merchant }) => {
  expect(merchant.email).toContain("@"); // signed in, so the dashboard's own actions are reached as a member would
  const actions = Object.entries(manifest.node);
  expect(actions.length).toBeGreaterThanOrEqual(8);
  for (const [id, action] of actions) {
    const path = pageOf(Object.keys(action.workers)[0] ?? "app/page");
    for (const args of SHAPES) {
      const answer = await page.request.post(path, {
        headers: { "next-action": id, "content-type": "text/plain;charset=UTF-8", accept: "text/x-component" },
        data: JSON.stringify(args),
        maxRedirects: 0,
      });
      expect(answer.status(), `${action.exportedName} (${action.filename}) given ${JSON.stringify(args)} at ${path}`).toBeLessThan(500);
    }
  }
});
