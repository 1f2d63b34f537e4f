// esbuild, for what Owo bundles while it runs (the checkout's script and stylesheet, the export thread's code): one
// build at a time, and its service stopped after each, since it is a child process that would stay resident.
import { build, stop, type BuildOptions } from "esbuild";

let queue: Promise<unknown> = Promise.resolve();

/** The one output file of a bundle (or of a stylesheet given as `stdin`), in memory. */
export function bundle(options: BuildOptions): Promise<Buffer> {
  const run = queue.then(async () => {
    try {
      const result = await build({ ...options, bundle: true, write: false, legalComments: "none" });
      const out = result.outputFiles?.[0]?.contents;
      if (!out) throw new Error("esbuild wrote nothing");
      return Buffer.from(out);
    } finally {
      await stop();
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
