// `--profile`: the server ran with --cpu-prof; print where its CPU went, by function and by package or file.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

type ProfileNode = { id: number; hitCount?: number; callFrame: { functionName: string; url: string; lineNumber: number } };
export type CpuProfile = { nodes: ProfileNode[] };

/** Where a frame lives: the npm package, else the file under the repository, else Node's own. */
export function frameHome(url: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  const own = /\/((?:server|db|app|bench)\/.+)$/.exec(url);
  if (own?.[1]) return own[1];
  return url === "" ? "(native)" : url.replace(/^node:/, "node:");
}

/** Self time shares, largest first: by function (`name home:line`) and by home. */
export function hottest(profile: CpuProfile, top: number): { functions: [string, number][]; homes: [string, number][] } {
  const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0) || 1;
  const functions = new Map<string, number>();
  const homes = new Map<string, number>();
  for (const n of profile.nodes) {
    const hits = n.hitCount ?? 0;
    if (!hits) continue;
    const home = frameHome(n.callFrame.url);
    const name = `${n.callFrame.functionName || "(anonymous)"} ${home}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ""}`;
    functions.set(name, (functions.get(name) ?? 0) + hits / total);
    homes.set(home, (homes.get(home) ?? 0) + hits / total);
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return { functions: sorted(functions), homes: sorted(homes) };
}

/** The profiles the bench's server runs wrote, newest last. */
export function printProfile(dir: string): void {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".cpuprofile"))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
  for (const file of files) {
    const { functions, homes } = hottest(JSON.parse(readFileSync(file, "utf8")) as CpuProfile, 30);
    console.log(`\n${file}\n  self time by package or file:`);
    for (const [home, share] of homes.slice(0, 15)) console.log(`    ${(share * 100).toFixed(1).padStart(5)} %  ${home}`);
    console.log("  self time by function:");
    for (const [name, share] of functions) console.log(`    ${(share * 100).toFixed(1).padStart(5)} %  ${name}`);
  }
}
