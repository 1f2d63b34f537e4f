// The part of autocannon's programmatic API the bench uses (the package ships no types).
declare module "autocannon" {
  export type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  export type Options = {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    requests?: (Request & {
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
      onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
    })[];
  };
  export type Histogram = { average: number; min: number; max: number; p50: number; p90: number; p99: number; total: number };
  export type Result = {
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    latency: Histogram;
    requests: Histogram;
    statusCodeStats: Record<string, { count: number }>;
  };
  /** The run is a promise of its result and an event emitter; "response" carries each answer's latency in ms. */
  export type Run = Promise<Result> & {
    on(event: "response", listener: (client: unknown, status: number, bytes: number, responseTimeMs: number) => void): void;
  };
  export default function autocannon(opts: Options): Run;
}
