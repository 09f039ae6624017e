import { Client } from 'pg';
import type { Logger } from '@ticketing/observability';

/**
 * The channel an `AFTER INSERT … FOR EACH STATEMENT` trigger on `outbox_messages` notifies:
 * PostgreSQL delivers the notification when the writing transaction commits, once per
 * transaction however many rows it wrote. Every publishing service's migrations create the
 * trigger (catalog's 20261125000000_outbox_notify).
 */
export const OUTBOX_CHANNEL = 'outbox_messages';

const RECONNECT_DELAY_MS = 1_000;

/**
 * Holds one connection LISTENing on the outbox channel and calls `onCommit` for each
 * notification, and once each time it starts listening (rows may have been committed while it
 * was not). A lost connection is reopened a second later; until then the relay's own polling
 * carries on, so nothing waits longer than one poll interval.
 */
export class OutboxListener {
  private current: Client | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly onCommit: () => void,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.stopped = false;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    const client = this.current;
    this.current = undefined;
    await client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'outbox-listener' });
    this.current = client;
    client.on('notification', () => this.onCommit());
    client.on('error', (error) => this.reconnectLater(client, error));
    client.on('end', () => this.reconnectLater(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.onCommit();
    } catch (error) {
      this.reconnectLater(client, error);
    }
  }

  /** Replaces a connection that failed or ended, once, unless the listener was stopped. */
  private reconnectLater(client: Client, error?: unknown): void {
    if (this.stopped || client !== this.current) return;
    this.current = undefined;
    this.logger.warn({ err: error }, 'outbox relay stopped listening for commits; polling until it listens again');
    client.end().catch(() => undefined);
    this.retry = setTimeout(() => void this.listen(), RECONNECT_DELAY_MS);
  }
}
