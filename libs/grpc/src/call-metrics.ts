import { Counter, Histogram, type Registry } from 'prom-client';
import { processMetrics } from '@ticketing/observability';

/**
 * Each service's own count and duration of the calls it served, by method and outcome (`ok`,
 * `replayed`, an error code, `unavailable`, `internal_error`): what a team running one service
 * watches for its error rate and latency, without the gateway's view. Labels are bounded: the
 * service's methods and the error codes.
 */
export class CallMetrics {
  private readonly handled: Counter<'rpc' | 'outcome'>;
  private readonly duration: Histogram<'rpc'>;

  constructor(registry: Registry = processMetrics) {
    // One set per registry, however many gRPC services a process implements.
    this.handled =
      (registry.getSingleMetric('grpc_server_handled_total') as Counter<'rpc' | 'outcome'> | undefined) ??
      new Counter({ name: 'grpc_server_handled_total', help: 'gRPC calls this process served, by method and outcome.', labelNames: ['rpc', 'outcome'], registers: [registry] });
    this.duration =
      (registry.getSingleMetric('grpc_server_handling_seconds') as Histogram<'rpc'> | undefined) ??
      new Histogram({
        name: 'grpc_server_handling_seconds',
        help: 'How long this process took to serve a gRPC call, by method.',
        labelNames: ['rpc'],
        buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers: [registry],
      });
  }

  observe(rpc: string, outcome: string, seconds: number): void {
    this.handled.inc({ rpc, outcome });
    this.duration.observe({ rpc }, seconds);
  }
}
