// The payments CSV streamed from a worker thread of its own. The serving thread has Next loaded: its ~90 MB live heap,
// which V8 lets grow to about twice that before a full collection, is where an export's garbage piled up (370–501 MB
// for 1,000,000 rows, bench/README.md "Export RSS"). A thread with a small heap of its own, holding one batch at a
// time, stays small and gives its heap back when the export ends. A child process did the same, but a second node
// process costs ~47 MB of resident binary and libraries before its first row (bench/README.md).
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { bundle } from "../bundling";
import { log } from "../logger";
import type { UserCaller } from "../auth/caller";
import { assertCan } from "../auth/permissions";
import { scopeOf, type Scope } from "../merchants/scope";
import type { PaymentFilters } from "./filters";

export type ExportJob = { scope: Scope; filters: PaymentFilters };
/** What the thread posts: the total first, then a chunk for each ask, then the end. */
export type ThreadMessage = { total: number } | { chunk: string } | { end: true };

const THREAD = fileURLToPath(new URL("./export-thread.ts", import.meta.url));
// The thread keeps one batch alive: small generations make V8 collect often instead of growing.
const THREAD_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 6 };

let code: Promise<string> | undefined;

/**
 * The thread's code as one CommonJS script, bundled once per process (its packages stay requires, found from the
 * working directory as the server finds them), so the thread needs no TypeScript loader.
 */
export function exportThreadCode(): Promise<string> {
  code ??= bundle({ entryPoints: [THREAD], platform: "node", format: "cjs", packages: "external", target: "node20" }).then(
    (script) => script.toString("utf8"),
    (err: unknown) => {
      code = undefined;
      throw err;
    },
  );
  return code;
}

let running = 0;
/** Exports whose thread is still alive. */
export const exportsRunning = () => running;

/** `exited` is the thread's exit code: anything but 0 means the CSV is cut short and must not look whole. */
export type ApartExport = { total: number; body: Readable; exited: Promise<number>; stop: () => void };

/** The caller's filtered payments as export.ts writes them, from a worker thread; `stop` ends it early. */
export async function exportPaymentsApart(caller: UserCaller, filters: PaymentFilters): Promise<ApartExport> {
  assertCan(caller, "payments.export");
  const job: ExportJob = { scope: scopeOf(caller), filters };
  // No --import tsx in the thread (the server's own flags): the script is plain JavaScript already.
  const worker = new Worker(await exportThreadCode(), { eval: true, workerData: job, execArgv: [], resourceLimits: THREAD_HEAP });
  running++;
  const exited = new Promise<number>((resolve) =>
    worker.on("exit", (exitCode) => {
      running--;
      resolve(exitCode);
    }),
  );
  // Each read asks the thread for one more chunk; a reader that is behind stops asking.
  const body = new Readable({ read: () => worker.postMessage("more") });
  let ended = false;
  const end = () => {
    if (!ended) body.push(null);
    ended = true;
  };
  const total = new Promise<number>((resolve, reject) => {
    worker.on("message", (message: ThreadMessage) => {
      if ("total" in message) resolve(message.total);
      else if ("chunk" in message) body.push(message.chunk);
      else end();
    });
    // A failure (a query, the heap's limit) ends the body early; `exited` then says it was cut short.
    worker.on("error", (err) => {
      log.error({ err }, "payments export thread failed");
      end();
    });
    void exited.then(() => reject(new Error("the export thread ended before it counted the payments")));
  });
  const stop = () => void worker.terminate();
  return { total: await total, body, exited, stop };
}
