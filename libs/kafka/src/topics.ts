import { setTimeout as sleep } from 'node:timers/promises';
import type { Admin, Kafka } from 'kafkajs';
import { backoffDelay, type Backoff } from '@ticketing/backoff';

/** How long a service waits at start for a broker that is still loading or electing leaders. */
export interface TopicsPatience {
  maxWaitMs: number;
  backoff: Backoff;
}

const START_PATIENCE: TopicsPatience = { maxWaitMs: 60_000, backoff: { initialMs: 100, maxMs: 2_000 } };

/**
 * Creates the topics if they are missing and waits until every partition has a leader, so
 * producers and consumers never race auto-creation. A broker that has just started answers for a
 * while that it does not host a topic it has created, or that the partition has no leader yet;
 * such retriable answers are waited out (up to `patience.maxWaitMs`) instead of failing the
 * service's start. Another replica creating the same topics at the same moment is not an error.
 */
export async function ensureTopics(kafka: Kafka, topics: string[], numPartitions = 3, patience: TopicsPatience = START_PATIENCE): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const deadline = Date.now() + patience.maxWaitMs;
    for (let attempt = 1; ; attempt += 1) {
      try {
        if (await createdWithLeaders(admin, topics, numPartitions)) return;
      } catch (error) {
        if (!isRetriable(error) || Date.now() >= deadline) throw error;
      }
      if (Date.now() >= deadline) {
        throw new Error(`Kafka topics ${topics.join(', ')} still have partitions without a leader after ${patience.maxWaitMs} ms; check the broker's health.`);
      }
      await sleep(backoffDelay(attempt, patience.backoff));
    }
  } finally {
    await admin.disconnect();
  }
}

/** Creates the missing topics; true when every partition of every topic has a leader. */
async function createdWithLeaders(admin: Admin, topics: string[], numPartitions: number): Promise<boolean> {
  const existing = new Set(await admin.listTopics());
  const missing = topics.filter((topic) => !existing.has(topic));
  if (missing.length > 0) {
    // Leaders are awaited below, on every attempt: kafkajs's own wait gives up on the first
    // "does not host this topic-partition" a loading broker answers.
    await admin.createTopics({ waitForLeaders: false, topics: missing.map((topic) => ({ topic, numPartitions })) });
  }
  const { topics: described } = await admin.fetchTopicMetadata({ topics });
  return described.every((topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0));
}

/** kafkajs marks the errors worth another attempt (a broker loading, a leader being elected). */
function isRetriable(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { retriable?: unknown }).retriable === true;
}
