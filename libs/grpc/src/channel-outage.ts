import { connectivityState, type Client } from '@grpc/grpc-js';

type Channel = ReturnType<Client['getChannel']>;

/**
 * How long a service may go unreached before calls stop waiting for it. A restart takes less
 * (the process starts and listens in a second or two), so restarts still cost no errors.
 */
export const OUTAGE_AFTER_MS = 5_000;

/**
 * How long a call waits for the channel of a service that is down: twice the longest pause
 * between reconnection attempts (client.ts), so a call arriving as the service comes back
 * finds it, and the full deadline is left for the call itself.
 */
export const OUTAGE_WAIT_MS = 2_000;

/**
 * Tells a service that is restarting from one that is down. Calls wait for their channel up to
 * their deadline (waitForReady), which carries them through a restart; through a longer outage,
 * every request would wait its full deadline before its 503. Once the channel has failed to
 * connect for `outageAfterMs`, and until it connects again, a call that finds it failing waits
 * only a moment for it (`connectsWithin`). Calls that find it idle or connecting wait as usual:
 * the channel is trying again.
 */
export class ChannelOutage {
  private failingSince: number | undefined;

  constructor(
    private readonly channel: Channel,
    readonly outageAfterMs: number,
  ) {
    this.follow(channel.getConnectivityState(false));
  }

  /** Whether the service has been unreachable long enough that a call should not wait for it. */
  get isDown(): boolean {
    if (this.failingSince === undefined || Date.now() - this.failingSince < this.outageAfterMs) return false;
    return this.channel.getConnectivityState(false) === connectivityState.TRANSIENT_FAILURE;
  }

  /** Whether the channel connects within `ms`, asking it to try if it is idle. */
  async connectsWithin(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (let state = this.channel.getConnectivityState(true); state !== connectivityState.READY; state = this.channel.getConnectivityState(true)) {
      if (state === connectivityState.SHUTDOWN) return false;
      const changed = await new Promise<boolean>((resolve) => this.channel.watchConnectivityState(state, deadline, (error) => resolve(error === undefined)));
      if (!changed) return false;
    }
    return true;
  }

  private follow(state: connectivityState): void {
    if (state === connectivityState.SHUTDOWN) return;
    if (state === connectivityState.READY) this.failingSince = undefined;
    else if (state === connectivityState.TRANSIENT_FAILURE) this.failingSince ??= Date.now();
    this.channel.watchConnectivityState(state, Infinity, () => this.follow(this.channel.getConnectivityState(false)));
  }
}
