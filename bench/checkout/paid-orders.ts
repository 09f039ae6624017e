import type { as } from '../../e2e/support/api';
import type { TicketsVisible } from './tickets-visible';

const PRICE = 2500;

/** A published event and its one tier, opened by PaidOrders.open. */
export interface OnSale {
  eventId: string;
  tierId: string;
}

/** One paid order's instants (`performance.now()`, ms): its creation asked, created, confirmed, its tickets seen. */
export interface PaidOrder {
  intentId: string;
  started: number;
  created: number;
  confirmed: number;
  visible: number;
}

export interface Checkout {
  paid: PaidOrder[];
  /** What each order that did not end with its tickets met, e.g. `create 409 sold_out`. */
  failures: string[];
  /** From the first order's creation asked to the last order's tickets seen. */
  seconds: number;
}

/** What a buyer reads of an answer: a payment intent's fields, or an error's code. */
interface Answer {
  status: number;
  body: { id?: string; status?: string; order?: { lines: Array<{ issuance: string }> }; error?: { code: string } } | undefined;
}

/** What an answer other than `status` met, e.g. `create 409 sold_out`; undefined for the one expected. */
function unexpected(step: string, answer: Answer, status: string): string | undefined {
  if (answer.status === 200 && answer.body?.status === status) return undefined;
  return `${step} ${answer.status} ${answer.body?.error?.code ?? answer.body?.status}`;
}

/**
 * Paid orders through the gateway, as buyers at checkout make them: each buyer creates an order
 * intent for one ticket (its units held), confirms it with the sandbox's `pm_card_visa` (charged,
 * units sold), and waits until its tickets exist before its next order, so `concurrency` orders
 * are in flight from creation to tickets at every moment, as `connections` sales are in
 * bench:onsale, where a sale's answer carries its tickets. Every order is another buyer's.
 */
export class PaidOrders {
  private buyer = 0;

  constructor(
    private readonly api: ReturnType<typeof as>,
    private readonly key: string,
    private readonly gateway: string,
    private readonly tickets: TicketsVisible,
  ) {}

  /** A published event with one tier of `capacity` tickets, on sale. */
  async open(capacity: number): Promise<OnSale> {
    const event = (await this.api.post('/v1/events', { name: 'Bench checkout', starts_at: '2099-01-01T20:00:00Z', currency: 'EUR' })).body;
    const tier = (await this.api.post(`/v1/events/${event.id}/tiers`, { name: 'GA', price: PRICE, capacity })).body;
    await this.api.patch(`/v1/events/${event.id}`, { status: 'published' });
    return { eventId: event.id, tierId: tier.id };
  }

  /** `orders` paid orders for the on-sale, `concurrency` at a time. */
  async buy(onSale: OnSale, orders: number, concurrency: number): Promise<Checkout> {
    const paid: PaidOrder[] = [];
    const failures: string[] = [];
    let taken = 0;
    const buyer = async () => {
      while (taken < orders) {
        taken += 1;
        const order = await this.order(onSale);
        if (typeof order === 'string') failures.push(order);
        else paid.push(order);
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: Math.min(concurrency, orders) }, buyer));
    const lastVisible = paid.reduce((last, order) => Math.max(last, order.visible), started);
    return { paid, failures, seconds: (lastVisible - started) / 1000 };
  }

  /** One order from creation to its tickets; what went wrong instead, if anything did. */
  private async order({ eventId, tierId }: OnSale): Promise<PaidOrder | string> {
    this.buyer += 1;
    const body = { order: { event_id: eventId, items: [{ tier_id: tierId, quantity: 1 }], customer: { email: `buyer${this.buyer}@example.com` } }, payment_method: 'pm_card_visa' };
    const started = performance.now();
    const intent = await this.post('/v1/payment_intents', body);
    const created = performance.now();
    const notCreated = unexpected('create', intent, 'requires_confirmation');
    if (notCreated) return notCreated;
    const intentId = intent.body!.id!;
    const confirmation = await this.post(`/v1/payment_intents/${intentId}/confirm`, {});
    const confirmed = performance.now();
    const notPaid = unexpected('confirm', confirmation, 'succeeded');
    if (notPaid) return notPaid;
    try {
      const visible = await this.tickets.when(intent.body!.order!.lines[0]!.issuance);
      return { intentId, started, created, confirmed, visible };
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  /**
   * A bare call: e2e/support/api's client also checks every answer against the OpenAPI
   * document, CPU that would count here as the load generator's.
   */
  private async post(pathAndQuery: string, body: unknown): Promise<Answer> {
    const response = await fetch(`${this.gateway}${pathAndQuery}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : undefined };
  }
}
