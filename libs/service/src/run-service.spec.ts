import { beginShutdown, readyUnlessShuttingDown } from './run-service';

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
