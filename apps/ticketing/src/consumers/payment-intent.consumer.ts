import type { Kafka } from 'kafkajs';
import { PAYMENTS_PAYMENT_INTENT_TOPIC } from '@ticketing/contracts';
import { startEventConsumer } from '@ticketing/kafka';
import type { Logger } from '@ticketing/observability';
import type { IssuePaidOrderUseCase } from '../usecases/issue-paid-order/issue-paid-order.usecase';

/**
 * Payments' intent messages: an order intent that succeeded has its tickets issued (decision
 * 0062). Its own group (`<group>.payments`), as a kafkajs group expects its members to subscribe
 * alike. Exactly once by the issuances' ids, however often a message arrives.
 */
export function startPaymentIntentConsumer(kafka: Kafka, groupId: string, issuePaidOrder: IssuePaidOrderUseCase, logger: Logger) {
  return startEventConsumer({
    kafka,
    groupId: `${groupId}.payments`,
    topic: PAYMENTS_PAYMENT_INTENT_TOPIC,
    logger,
    handle: async (change, context) => {
      if (change.type !== 'payment_intent.succeeded' || !change.data.order) return;
      const tickets = await issuePaidOrder.execute({ accountId: change.account_id, mode: change.mode }, { ...change.data, order: change.data.order });
      context.logger.info({ payment_intent_id: change.data.payment_intent_id, tickets }, 'paid order issued');
    },
  });
}
