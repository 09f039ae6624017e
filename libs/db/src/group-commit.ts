import { AsyncResource } from 'node:async_hooks';

/**
 * Group commit: calls that would each run the same statement (a write to the same hot row, or
 * the same read, or a call to another service) run as one for many. Per key (a tier, say), one
 * batch runs at a time; the calls made in the same turn of the event loop go together, and those
 * that arrive while a batch runs wait and go together in the next. A lone call runs as soon as
 * the turn that made it ends (a microtask later), so nothing waits for a timer at low load, and
 * under load a batch is as large as the load made it, up to `maxBatch`. `runBatch` answers one
 * result per item, in order: a value, or an Error that only that item's caller receives; if it
 * throws, every item of the batch receives the error.
 *
 * A batch serves many callers, so it runs in the async context the GroupCommit was created in,
 * never in one caller's: nothing a caller's context carries (its request id, its Idempotency-Key's
 * recorded write) can leak into the others' work. Whatever an item needs from its caller's
 * context goes in the item.
 */
export class GroupCommit<Item, Result> {
  private readonly queues = new Map<string, Array<Waiting<Item, Result>>>();
  /** Runs a function in the async context of this object's creation. */
  private readonly detached = AsyncResource.bind(<T>(run: () => T): T => run());

  constructor(
    private readonly runBatch: (key: string, items: Item[]) => Promise<Array<Result | Error>>,
    private readonly maxBatch = 100,
  ) {}

  run(key: string, item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      this.queues.set(key, [{ item, resolve, reject }]);
      // The calls made after this one in the same turn (a batch call's items, say) join its batch.
      this.detached(() => queueMicrotask(() => void this.drain(key)));
    });
  }

  /** Runs the key's batches one after another until no call is waiting, then forgets the key. */
  private async drain(key: string): Promise<void> {
    const queue = this.queues.get(key)!;
    while (queue.length > 0) {
      const batch = queue.splice(0, this.maxBatch);
      try {
        const results = await this.runBatch(key, batch.map((waiting) => waiting.item));
        if (results.length !== batch.length) throw new Error(`group commit answered ${results.length} results for ${batch.length} items`);
        batch.forEach((waiting, index) => {
          const result = results[index]!;
          if (result instanceof Error) waiting.reject(result);
          else waiting.resolve(result);
        });
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.queues.delete(key);
  }
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}
