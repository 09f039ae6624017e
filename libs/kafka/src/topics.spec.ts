import { KafkaJSNonRetriableError, KafkaJSProtocolError, type Admin, type Kafka } from 'kafkajs';
import { ensureTopics } from './topics';

/** What a broker that has just started answered: it created the topic but does not host it yet. */
const notHostedYet = () => new KafkaJSProtocolError(Object.assign(new Error('This server does not host this topic-partition'), { type: 'UNKNOWN_TOPIC_OR_PARTITION', code: 3, retriable: true }));

/** A broker's admin API in memory; `metadataAnswers` are played in order, the last one repeated. */
function brokerAnswering(metadataAnswers: Array<Error | { leader: number }>) {
  const created: string[] = [];
  let answered = 0;
  const admin = {
    connect: jest.fn(async () => undefined),
    disconnect: jest.fn(async () => undefined),
    listTopics: jest.fn(async () => [...created]),
    createTopics: jest.fn(async ({ topics }: { topics: Array<{ topic: string }> }) => {
      created.push(...topics.map(({ topic }) => topic));
      return true;
    }),
    fetchTopicMetadata: jest.fn(async ({ topics }: { topics: string[] }) => {
      const answer = metadataAnswers[Math.min(answered++, metadataAnswers.length - 1)]!;
      if (answer instanceof Error) throw answer;
      return { topics: topics.map((name) => ({ name, partitions: [0, 1, 2].map((partitionId) => ({ partitionId, leader: answer.leader })) })) };
    }),
  };
  return { kafka: { admin: () => admin as unknown as Admin } as unknown as Kafka, admin };
}

const patience = { maxWaitMs: 1_000, backoff: { initialMs: 1, maxMs: 5 } };

describe('ensureTopics', () => {
  it('waits out a loading broker that does not host the topic it has just created, then has leaders', async () => {
    const { kafka, admin } = brokerAnswering([notHostedYet(), notHostedYet(), { leader: -1 }, { leader: 1 }]);

    await ensureTopics(kafka, ['orders'], 3, patience);

    expect(admin.createTopics).toHaveBeenCalledTimes(1);
    expect(admin.fetchTopicMetadata).toHaveBeenCalledTimes(4);
    expect(admin.disconnect).toHaveBeenCalled();
  });

  it('creates only the missing topics', async () => {
    const { kafka, admin } = brokerAnswering([{ leader: 1 }]);
    admin.listTopics.mockResolvedValueOnce(['orders']);

    await ensureTopics(kafka, ['orders', 'orders.dlq'], 3, patience);

    expect(admin.createTopics).toHaveBeenCalledWith({ waitForLeaders: false, topics: [{ topic: 'orders.dlq', numPartitions: 3 }] });
  });

  it('fails at once on an error kafkajs does not retry', async () => {
    const { kafka, admin } = brokerAnswering([new KafkaJSNonRetriableError('Invalid topics array')]);

    await expect(ensureTopics(kafka, ['orders'], 3, patience)).rejects.toThrow('Invalid topics array');
    expect(admin.fetchTopicMetadata).toHaveBeenCalledTimes(1);
    expect(admin.disconnect).toHaveBeenCalled();
  });

  it('gives up after its patience when partitions never get a leader, naming the topics', async () => {
    const { kafka } = brokerAnswering([{ leader: -1 }]);

    await expect(ensureTopics(kafka, ['orders'], 3, { ...patience, maxWaitMs: 30 })).rejects.toThrow(/orders still have partitions without a leader/);
  });

  it('gives up after its patience on a broker that keeps answering a retriable error', async () => {
    const { kafka } = brokerAnswering([notHostedYet()]);

    await expect(ensureTopics(kafka, ['orders'], 3, { ...patience, maxWaitMs: 30 })).rejects.toThrow('does not host this topic-partition');
  });
});
