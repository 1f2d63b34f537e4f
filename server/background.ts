// Timers that run beside the HTTP front: the expiry sweeper and the callback delivery worker.
export type Background = { stop: () => Promise<void> };

export async function startBackground(): Promise<Background> {
  const stops: (() => Promise<void>)[] = [];
  return {
    stop: async () => {
      await Promise.all(stops.map((s) => s()));
    },
  };
}
