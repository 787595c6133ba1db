/** The part of autocannon 9's API the HTTP throughput section uses (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    method?: 'GET' | 'PATCH';
    headers?: Record<string, string>;
    body?: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
  }

  interface Histogram {
    average: number;
    p50: number;
    p99: number;
  }

  interface Result {
    /** Requests per second, sampled each second. */
    requests: Histogram;
    /** Milliseconds. */
    latency: Histogram;
    errors: number;
    timeouts: number;
    non2xx: number;
  }

  export default function autocannon(options: Options): Promise<Result>;
}
