import type { Kafka } from 'kafkajs';
import { TICKETING_TICKET_TOPIC } from '@ticketing/contracts';
import { startEventConsumer } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { RefundPaymentUseCase } from '../usecases/refund-payment/refund-payment.usecase';

/**
 * Ticketing's ticket changes: a refunded ticket paid through a payment intent has its price given
 * back from the intent's payment (decision 0064), once by the change's id, and never more than
 * is left of the payment. Other changes, and tickets paid elsewhere or free, change nothing here.
 */
export function startTicketRefundConsumer(kafka: Kafka, groupId: string, refunds: RefundPaymentUseCase, logger: Logger) {
  return startEventConsumer({
    kafka,
    groupId: `${groupId}.tickets`,
    topic: TICKETING_TICKET_TOPIC,
    logger,
    handle: async (change, context) => {
      if (change.type !== 'ticket.refunded' || change.data.payment?.type !== 'payment_intent' || change.data.price === 0) return;
      const refund = await refunds.execute(
        { accountId: change.account_id, mode: change.mode },
        { of: { payment_intent_id: change.data.payment.reference }, amount: change.data.price, beyondWhatIsLeft: 'give_what_is_left', reason: change.data.reason, source_id: change.data.change_id },
      );
      context.logger.info({ ticket_id: change.data.ticket_id, refund_id: refund?.id ?? null, amount: refund?.amount ?? 0 }, 'ticket refund given back');
    },
  });
}
