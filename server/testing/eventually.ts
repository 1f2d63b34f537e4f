// Waiting for something another process or loop does: poll until it is there, or fail naming what never came.

type Found<T> = T | undefined | false;

/**
 * Polls `check` until it returns a value (not undefined/false), or fails after `timeoutMs`, saying what `seen` found
 * there instead when given.
 */
export async function eventually<T>(
  what: string,
  check: () => Found<T> | Promise<Found<T>>,
  timeoutMs = 10_000,
  seen?: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${seen ? `; ${seen()}` : ""}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
