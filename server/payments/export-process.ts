// The payments CSV streamed from a process of its own. The serving process has Next loaded: its ~90 MB live heap,
// which V8 lets grow to about twice that before a full collection, is where an export's garbage piled up (370–501 MB
// for 1,000,000 rows, bench/README.md "Export RSS"). A bare process holding one batch at a time stays small, and its
// memory goes back to the system when the export ends.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Readable } from "node:stream";
import { bundle } from "../bundling";
import type { UserCaller } from "../auth/caller";
import { assertCan } from "../auth/permissions";
import { scopeOf, type Scope } from "../merchants/scope";
import type { PaymentFilters } from "./filters";

export type ExportJob = { scope: Scope; filters: PaymentFilters };

const CHILD = fileURLToPath(new URL("./export-child.ts", import.meta.url));
// The child keeps one batch alive: small generations make V8 collect often instead of growing (its default young
// generation alone may take 48 MB).
const CHILD_HEAP = ["--max-old-space-size=48", "--max-semi-space-size=2"];

let code: Promise<Buffer> | undefined;

/**
 * The child's code as one ES module, bundled once per process (its packages stay imports, found from the working
 * directory as the server finds them). Plain node runs it: no TypeScript loader in the child, ~45 MB less.
 */
function childCode(): Promise<Buffer> {
  code ??= bundle({ entryPoints: [CHILD], platform: "node", format: "esm", packages: "external", target: "node20" }).catch(
    (err: unknown) => {
      code = undefined;
      throw err;
    },
  );
  return code;
}

/** `exited` is the child's exit code: anything but 0 means the CSV is cut short and must not look whole. */
export type ApartExport = { total: number; body: Readable; exited: Promise<number | null>; stop: () => void };

/** The caller's filtered payments as export.ts writes them, from a child process; `stop` ends it early. */
export async function exportPaymentsApart(caller: UserCaller, filters: PaymentFilters): Promise<ApartExport> {
  assertCan(caller, "payments.export");
  const job: ExportJob = { scope: scopeOf(caller), filters };
  const script = await childCode();
  // The module comes on stdin ("-"), so nothing is written to the install folder, which may be read-only.
  const child = spawn(process.execPath, ["--input-type=module", ...CHILD_HEAP, "-", JSON.stringify(job)], {
    stdio: ["pipe", "inherit", "inherit", "pipe"],
  });
  child.stdin?.end(script);
  const body = child.stdio[3] as Readable;
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const stop = () => {
    if (child.exitCode === null) child.kill();
  };
  const total = await firstLine(body).catch((err: unknown) => {
    stop();
    throw err;
  });
  return { total: Number(total), body, exited, stop };
}

/** Reads up to the first newline and puts back what came after it, so `body` is the CSV alone. */
function firstLine(body: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    let head = "";
    const onData = (chunk: Buffer) => {
      const at = chunk.indexOf(10);
      if (at < 0) {
        head += chunk.toString("utf8");
        return;
      }
      body.off("data", onData).off("end", onEnd);
      body.pause();
      if (at + 1 < chunk.length) body.unshift(chunk.subarray(at + 1));
      resolve(head + chunk.subarray(0, at).toString("utf8"));
    };
    const onEnd = () => reject(new Error("the export process ended before it counted the payments"));
    body.on("data", onData).on("end", onEnd);
  });
}
