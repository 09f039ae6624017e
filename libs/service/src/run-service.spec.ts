import { beginShutdown, readyUnlessShuttingDown, shutdownOrder } from './run-service';

describe('readiness through a shutdown', () => {
  it("answers as the process's own check says until the shutdown begins, then not ready whatever it says", async () => {
    let databaseAnswers = true;
    const ready = readyUnlessShuttingDown(async () => databaseAnswers);
    expect(await ready()).toBe(true);
    databaseAnswers = false;
    expect(await ready()).toBe(false);
    databaseAnswers = true;

    beginShutdown();

    expect(await ready()).toBe(false);
  });
});

describe('shutdownOrder', () => {
  it('keeps the given order, with the steps marked last after all the others', () => {
    const step = (name: string, last?: boolean) => ({ name, run: async () => undefined, ...(last ? { last } : {}) });
    const order = shutdownOrder([step('grpc server'), step('ops server', true), step('outbox relay'), step('database')]);
    expect(order.map((each) => each.name)).toEqual(['grpc server', 'outbox relay', 'database', 'ops server']);
  });
});
