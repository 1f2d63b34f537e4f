// Node's own ESM resolution (TypeScript's "nodenext") wants extensions on relative imports; the server's sources,
// written for bundler resolution, have none. Adding them to the emitted declarations gives every consumer the
// real AppRouter types: without them a nodenext project silently sees `any`.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

function declarations(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return declarations(path);
    return e.name.endsWith(".d.ts") ? [path] : [];
  });
}

for (const file of declarations(fileURLToPath(new URL("./dist/", import.meta.url)))) {
  const text = readFileSync(file, "utf8");
  const explicit = text.replace(/((?:from |import\()")(\.{1,2}\/[^"]*)"/g, (whole, lead, specifier) => {
    const target = resolve(dirname(file), specifier);
    if (existsSync(`${target}.d.ts`)) return `${lead}${specifier}.js"`;
    if (existsSync(join(target, "index.d.ts"))) return `${lead}${specifier}/index.js"`;
    return whole;
  });
  if (explicit !== text) writeFileSync(file, explicit);
}
