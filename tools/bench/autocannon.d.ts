// The part of autocannon 9's programmatic API the bench uses (the package ships no types, and
// @types/autocannon 7.12 describes autocannon 7: no `warmup` option or result).
declare module 'autocannon' {
  interface Percentiles {
    average: number;
    p50: number;
    p99: number;
    max: number;
    total: number;
  }

  export interface Options {
    url: string;
    connections: number;
    /** Seconds. */
    duration: number;
    method?: string;
    headers?: Record<string, string>;
    /** Seconds before a request counts as a timeout. */
    timeout?: number;
    /** Each request can be rewritten before it is sent: a fresh path per request, say. */
    requests?: { setupRequest?: (request: { path: string }) => { path: string } }[];
    /** A run whose results are discarded, made first with these settings. */
    warmup?: { connections: number; duration: number };
  }

  export interface Result {
    requests: Percentiles & { sent: number };
    latency: Percentiles;
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
    warmup?: Result;
  }

  export default function autocannon(options: Options): PromiseLike<Result>;
}
