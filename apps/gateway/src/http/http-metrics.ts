import { Counter, Histogram, type Registry } from 'prom-client';

/** Request counts and latencies by route template (bounded label values). */
export class HttpMetrics {
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;

  /** `registry`: where the ops server reads them (the process's default registry in production). */
  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, seconds);
  }
}
