import { Counter, Gauge } from 'prom-client';

/**
 * Prometheus metrics of the Kafka ends, in the default registry that every service's ops server
 * exposes at /metrics. Gauges that need a query are measured at scrape time by probes that
 * running relays and consumers register; a probe that fails leaves its series out rather than
 * reporting a stale value.
 */
export interface PartitionLag {
  topic: string;
  group: string;
  partition: number;
  lag: number;
}

export interface OutboxBacklog {
  unpublished: number;
  oldestAgeSeconds: number;
}

const consumerLagProbes = new Set<() => Promise<PartitionLag[]>>();
const outboxBacklogProbes = new Set<() => Promise<OutboxBacklog>>();

async function measure<T>(probes: Set<() => Promise<T>>): Promise<T[]> {
  const results = await Promise.allSettled([...probes].map((probe) => probe()));
  return results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
}

export const consumedMessages = new Counter({
  name: 'kafka_consumer_messages_total',
  help: 'Messages a consumer finished with, by outcome: handled, ignored (an event type it does not know) or dead_lettered.',
  labelNames: ['topic', 'group', 'outcome'] as const,
});

export const deadLetteredMessages = new Counter({
  name: 'kafka_consumer_dead_letters_total',
  help: 'Messages sent to the dead-letter topic, by reason: not_json, invalid_event or handler_failed.',
  labelNames: ['topic', 'group', 'reason'] as const,
});

export const handlerFailures = new Counter({
  name: 'kafka_consumer_handler_failures_total',
  help: 'Failed attempts to handle a message (each retry counts).',
  labelNames: ['topic', 'group'] as const,
});

export const consumerLag = new Gauge({
  name: 'kafka_consumer_lag_messages',
  help: "Messages on the partition after the consumer group's committed offset.",
  labelNames: ['topic', 'group', 'partition'] as const,
  async collect() {
    this.reset();
    for (const { topic, group, partition, lag } of (await measure(consumerLagProbes)).flat()) this.set({ topic, group, partition }, lag);
  },
});

export const publishedMessages = new Counter({
  name: 'outbox_messages_published_total',
  help: 'Outbox messages the relay published to Kafka (a republication after a crash counts again).',
  labelNames: ['topic'] as const,
});

export const publishFailures = new Counter({
  name: 'outbox_publish_failures_total',
  help: 'Relay rounds that failed (broker or database unreachable); each is followed by a backoff.',
});

/** One outbox per service database; should a process run several relays, the worst one counts. */
async function collectBacklog(gauge: Gauge, value: (backlog: OutboxBacklog) => number): Promise<void> {
  gauge.reset();
  const backlogs = await measure(outboxBacklogProbes);
  if (backlogs.length > 0) gauge.set(Math.max(...backlogs.map(value)));
}

export const unpublishedMessages = new Gauge({
  name: 'outbox_unpublished_messages',
  help: 'Committed outbox messages not yet published.',
  collect() {
    return collectBacklog(this, (backlog) => backlog.unpublished);
  },
});

export const oldestUnpublishedAge = new Gauge({
  name: 'outbox_oldest_unpublished_age_seconds',
  help: 'Age of the oldest committed outbox message not yet published (0 when none): the relay lag.',
  collect() {
    return collectBacklog(this, (backlog) => backlog.oldestAgeSeconds);
  },
});

/** Registers a scrape-time measurement; returns its removal. */
export function addConsumerLagProbe(probe: () => Promise<PartitionLag[]>): () => void {
  consumerLagProbes.add(probe);
  return () => void consumerLagProbes.delete(probe);
}

export function addOutboxBacklogProbe(probe: () => Promise<OutboxBacklog>): () => void {
  outboxBacklogProbes.add(probe);
  return () => void outboxBacklogProbes.delete(probe);
}
