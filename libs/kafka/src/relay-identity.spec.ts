import { hostname } from 'node:os';
import { isGoneFromThisHost, newRelayId } from './relay-identity';

/** Above every pid the kernel hands out (pid_max is at most 2^22), so no process has it. */
const NO_SUCH_PID = 2_147_483_647;

describe('relay identity', () => {
  const self = newRelayId();

  it('names the host and process', () => {
    expect(self).toMatch(new RegExp(`^${hostname()}/${process.pid}/[0-9a-f]{8}$`));
  });

  it('knows a relay of this host gone when its process has ended, or when it was an earlier process under this pid', () => {
    expect(isGoneFromThisHost(`${hostname()}/${NO_SUCH_PID}/0a1b2c3d`)).toBe(true);
    expect(isGoneFromThisHost(`${hostname()}/${process.pid}/0a1b2c3d`)).toBe(true);
  });

  it('does not take a relay of this process, a live process, a relay of another host or a name it cannot read for gone', () => {
    expect(isGoneFromThisHost(self)).toBe(false);
    expect(isGoneFromThisHost(newRelayId())).toBe(false);
    expect(isGoneFromThisHost(`${hostname()}/${process.ppid}/0a1b2c3d`)).toBe(false);
    expect(isGoneFromThisHost(`another-host/${NO_SUCH_PID}/0a1b2c3d`)).toBe(false);
    expect(isGoneFromThisHost('outbox-relay')).toBe(false);
    expect(isGoneFromThisHost(`${hostname()}/not-a-pid/0a1b2c3d`)).toBe(false);
  });
});
