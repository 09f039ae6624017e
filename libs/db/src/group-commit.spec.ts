import { AsyncLocalStorage } from 'node:async_hooks';
import { GroupCommit } from './group-commit';

/** A batch runner whose batches finish only when the test says so. */
function controlledRunner() {
  const batches: Array<{ key: string; items: number[]; finish(results?: Array<number | Error>): void; fail(error: Error): void }> = [];
  const runner = new GroupCommit<number, number>(
    (key, items) =>
      new Promise((resolve, reject) => {
        batches.push({ key, items, finish: (results) => resolve(results ?? items.map((item) => item * 10)), fail: reject });
      }),
    3,
  );
  return { runner, batches };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('GroupCommit', () => {
  it('runs a lone call as soon as the turn that made it ends, as a batch of one', async () => {
    const { runner, batches } = controlledRunner();
    const result = runner.run('tier_a', 1);
    expect(batches).toEqual([]);
    await null;
    expect(batches.map((batch) => batch.items)).toEqual([[1]]);
    batches[0]!.finish();
    await expect(result).resolves.toBe(10);
  });

  it('sends the calls made in the same turn together, at most maxBatch at a time', async () => {
    const { runner, batches } = controlledRunner();
    const results = [1, 2, 3, 4].map((item) => runner.run('tier_a', item));
    await null;
    expect(batches.map((batch) => batch.items)).toEqual([[1, 2, 3]]);
    batches[0]!.finish();
    await settled();
    expect(batches.map((batch) => batch.items)).toEqual([[1, 2, 3], [4]]);
    batches[1]!.finish();
    await expect(Promise.all(results)).resolves.toEqual([10, 20, 30, 40]);
  });

  it('sends the calls that arrive while a batch runs together in the next, at most maxBatch at a time', async () => {
    const { runner, batches } = controlledRunner();
    const first = runner.run('tier_a', 1);
    await null;
    const later = [2, 3, 4, 5, 6].map((item) => runner.run('tier_a', item));
    expect(batches.map((batch) => batch.items)).toEqual([[1]]);
    batches[0]!.finish();
    await settled();
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2, 3, 4]]);
    batches[1]!.finish();
    await settled();
    batches[2]!.finish();
    await expect(Promise.all([first, ...later])).resolves.toEqual([10, 20, 30, 40, 50, 60]);
    expect(batches.map((batch) => batch.items)).toEqual([[1], [2, 3, 4], [5, 6]]);
  });

  it("gives an item's error to that item's caller only", async () => {
    const { runner, batches } = controlledRunner();
    const first = runner.run('tier_a', 1);
    await null;
    const [second, third] = [runner.run('tier_a', 2), runner.run('tier_a', 3)];
    batches[0]!.finish();
    await settled();
    batches[1]!.finish([20, new Error('sold out')]);
    await expect(first).resolves.toBe(10);
    await expect(second).resolves.toBe(20);
    await expect(third).rejects.toThrow('sold out');
  });

  it('fails every item of a batch that throws, and runs the next batch', async () => {
    const { runner, batches } = controlledRunner();
    const first = runner.run('tier_a', 1);
    await null;
    const second = runner.run('tier_a', 2);
    batches[0]!.fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await settled();
    batches[1]!.finish();
    await expect(second).resolves.toBe(20);
  });

  it('fails a batch answered with the wrong number of results', async () => {
    const { runner, batches } = controlledRunner();
    const result = runner.run('tier_a', 1);
    await null;
    batches[0]!.finish([]);
    await expect(result).rejects.toThrow('answered 0 results for 1 items');
  });

  it('runs the batches of different keys side by side', async () => {
    const { runner, batches } = controlledRunner();
    const results = [runner.run('tier_a', 1), runner.run('tier_b', 2)];
    await null;
    expect(batches.map((batch) => [batch.key, batch.items])).toEqual([
      ['tier_a', [1]],
      ['tier_b', [2]],
    ]);
    batches.forEach((batch) => batch.finish());
    await expect(Promise.all(results)).resolves.toEqual([10, 20]);
  });

  it('runs every batch outside its callers\u2019 async context, so one caller\u2019s request state never reaches the others\u2019 work', async () => {
    const requests = new AsyncLocalStorage<string>();
    const seen: Array<string | undefined> = [];
    const runner = new GroupCommit<number, number>(async (_key, items) => {
      seen.push(requests.getStore());
      await settled();
      return items;
    });
    const first = requests.run('req_1', () => runner.run('tier_a', 0));
    await null;
    const later = ['req_2', 'req_3'].map((requestId, index) => requests.run(requestId, () => runner.run('tier_a', index + 1)));
    await expect(Promise.all([first, ...later])).resolves.toEqual([0, 1, 2]);
    expect(seen).toEqual([undefined, undefined]);
  });
});
