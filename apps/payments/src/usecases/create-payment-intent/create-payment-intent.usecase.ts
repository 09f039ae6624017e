import type { InternalClaims, Tenant } from '@ticketing/auth';
import type { EarlyKeyClaims } from '@ticketing/db';
import { newId } from '@ticketing/ids';
import type { CatalogOrders, HeldLine } from '../../catalog/catalog-orders';
import type { OrderSeatHolds } from '../../ticketing/seat-holds';
import type { PrismaClient } from '../../db';
import { assertOrderPricedByCatalog, ORDER_HOLD_GRACE_SECONDS, validOrderRequest, type Order, type OrderRequest } from '../../domain/order';
import { orderAmount, validIntentDetails, validNewPaymentIntent, type NewOrderIntent, type NewPaymentIntent, type PaymentIntent } from '../../domain/payment-intent';
import type { Processors } from '../../processors/payment-processor';
import { PaymentIntentRepository } from '../../repositories/payment-intent.repository';
import { enqueuePaymentIntentEvent } from '../../repositories/payment-intent-events';

export interface CreatePaymentIntentCommand {
  amount: number;
  currency: string;
  description: string;
  metadata: Record<string, string>;
  payment_method: string;
  order?: { event_id: string; items: Array<{ tier_id: string; quantity: number }>; customer?: { email: string; name: string }; discount_code: string; seat_hold_id: string };
}

/**
 * Creates an intent, awaiting its payment method or, given one, its confirmation, with
 * payment_intent.created. A plain intent takes the amount it is given. An order intent
 * (decision 0062) is priced by catalog, takes the buyer's seat hold (ticketing's) for its seated
 * line, and holds its units in catalog under each line's issuance id, before it is recorded: a sold-out order is refused at creation, having recorded nothing. Under
 * an Idempotency-Key its key is claimed first (decision 0041), so a retry while the first call is
 * on its way never holds a second set of units, and a retry after a call that died gives back
 * what that call held.
 */
export class CreatePaymentIntentUseCase {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly processors: Processors,
    private readonly catalog: CatalogOrders,
    private readonly keys: EarlyKeyClaims,
    private readonly seatHolds: OrderSeatHolds,
    private readonly orderLifetimeSeconds: number,
  ) {}

  execute(claims: InternalClaims, tenant: Tenant, command: CreatePaymentIntentCommand): Promise<PaymentIntent> {
    if (command.order) return this.createOrderIntent(claims, tenant, command, validOrderRequest(command.order));
    const fields = validNewPaymentIntent(command);
    if (fields.payment_method) this.processors.of(tenant.mode).assertChargeable(fields.payment_method);
    return this.record(tenant, newId('pi'), fields);
  }

  private createOrderIntent(claims: InternalClaims, tenant: Tenant, command: CreatePaymentIntentCommand, request: OrderRequest): Promise<PaymentIntent> {
    const details = validIntentDetails(command);
    if (details.payment_method) this.processors.of(tenant.mode).assertChargeable(details.payment_method);
    const lines: HeldLine[] = request.items.map((item) => ({ ...item, issuance_id: newId('iss') }));
    /** The lines a call of this same request held under these issuance ids (a lapsed claim's `acts_on`). */
    const linesHeldAs = (ids: string) => ids.split(',').map((issuance_id, index) => ({ ...request.items[index]!, issuance_id }));
    const heldFor = this.orderLifetimeSeconds + ORDER_HOLD_GRACE_SECONDS;
    return this.keys.run(
      async () => {
        const quote = await this.catalog.quote(claims, request);
        assertOrderPricedByCatalog(command, quote.currency);
        const amount = orderAmount(quote.total);
        // The buyer's seat hold first: checked and taken for its line, then the units.
        const seated = request.seat_hold_id && (await this.seatHolds.take(claims, { event_id: request.event_id, hold_id: request.seat_hold_id, lines, taken_until: new Date(Date.now() + heldFor * 1000) }));
        await this.catalog.hold(claims, request.event_id, lines, heldFor).catch(async (error: unknown) => {
          if (seated) await this.seatHolds.letGo(claims, request.seat_hold_id!, seated).catch(() => undefined);
          throw error;
        });
        const order: Order = {
          event_id: request.event_id,
          lines: lines.map((line) => {
            const priced = quote.lines.find((quoted) => quoted.tier_id === line.tier_id)!;
            return { ...line, unit_price: priced.unit_price, amount: priced.total, seat_hold_id: line.issuance_id === seated ? request.seat_hold_id : null };
          }),
          customer: request.customer,
          discount_id: quote.discount?.id ?? null,
          subtotal: quote.subtotal,
          discount_amount: quote.discount_amount,
        };
        const intent: NewOrderIntent = { ...details, amount, currency: quote.currency, order, expires_at: new Date(Date.now() + this.orderLifetimeSeconds * 1000) };
        return this.record(tenant, newId('pi'), intent).catch(async (error: unknown) => {
          await this.giveBack(claims, request, lines).catch(() => undefined);
          throw error;
        });
      },
      async (earlier) => earlier as PaymentIntent,
      { id: lines.map((line) => line.issuance_id).join(','), undo: (ids) => this.giveBack(claims, request, linesHeldAs(ids)) },
    );
  }

  /** What an order's creation took before it was recorded, given back: its units, and its seat hold. */
  private async giveBack(claims: InternalClaims, request: OrderRequest, lines: HeldLine[]): Promise<void> {
    await this.catalog.withdraw(claims, lines);
    if (request.seat_hold_id) await Promise.all(lines.map((line) => this.seatHolds.letGo(claims, request.seat_hold_id!, line.issuance_id)));
  }

  private record(tenant: Tenant, id: string, fields: NewPaymentIntent | NewOrderIntent): Promise<PaymentIntent> {
    return this.prisma.$transaction(async (tx) => {
      const intent = await new PaymentIntentRepository(tx).create(tenant, id, fields);
      await enqueuePaymentIntentEvent(tx, tenant, 'payment_intent.created', intent);
      return intent;
    });
  }
}
