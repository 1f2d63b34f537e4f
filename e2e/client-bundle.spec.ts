// The browser gets no server code: the production build's client chunks carry nothing of server/ or db/.
// (Modules marked `import "server-only"` cannot reach a client graph at all: Next's build refuses it.)
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";

/** Text that exists only in a server module, with the module it betrays. */
const SERVER_ONLY_TEXT: Record<string, string> = {
  "Invalid/Missing parameters": "server/api-error.ts",
  "must be a string of naira with at most 2 decimals": "server/payments/initiate-schema.ts",
  "Guaranty Trust Bank": "server/providers/banks.json",
  "better-sqlite3": "db/client.ts",
  journal_mode: "db/client.ts",
  OWO_MASTER_KEY: "server/settings.ts",
  argon2: "server/auth/passwords.ts",
  "Sign in, or send Authorization": "server/trpc/init.ts",
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : [],
  );
}

test("the client chunks of the build hold no server module", () => {
  const chunks = filesUnder(join(process.env.OWO_NEXT_DIST || ".next", "static"));
  expect(chunks.length).toBeGreaterThan(0);
  const found = chunks.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    return Object.entries(SERVER_ONLY_TEXT)
      .filter(([needle]) => text.includes(needle))
      .map(([needle, module]) => `${file}: "${needle}" (${module})`);
  });
  expect(found).toEqual([]);
});
