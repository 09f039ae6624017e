import { z } from 'zod';
import { toListEnvelope } from '@ticketing/pagination';
import { listOf } from '../presenters/resource.schema';
import { TICKET_STATUSES } from '@ticketing/contracts';
import {
  deliveryLinkResource,
  presentDeliveryLink,
  presentTicket,
  presentTicketIssuance,
  presentUpgradeOption,
  ticketIssuanceResource,
  ticketResource,
  upgradeOptionResource,
} from '../presenters/ticket.presenter';
import { admissionToken, discountCode, MAX_ORDER_QUANTITY, metadata, orderAmount, resourceId, text, wholeNumber } from '../validation/fields';
import { listQuery, pageRequest } from '../validation/list-query';
import { defineRoute, secretKey } from './route';
import { holderFields, holderOf, requireOneHolder } from './ticket-holder';

const TAG = 'Tickets';
const ticket = ticketResource;

/** Money taken outside this API, recorded with the tickets it paid for. */
const externalPayment = (amountDescription: string) =>
  z
    .strictObject({
      type: z.literal('external', { error: 'must be external: the money was taken outside this API' }),
      reference: text(255).meta({ description: 'Your reference for the payment (an order number, a receipt id).', example: 'order-8812' }),
      amount: orderAmount.meta({ description: amountDescription, example: 9000 }),
    })
    .meta({ description: 'How it was paid for.' });

/** A succeeded payment intent of this API that pays for one issuance or upgrade (decision 0064), of exactly `price`. */
const intentPayment = (price: string) =>
  z
    .strictObject({
      type: z.literal('payment_intent'),
      payment_intent: resourceId('pi').meta({ description: `A succeeded payment intent of exactly ${price}, in the event’s currency, not used to pay for anything else.` }),
    })
    .meta({ description: 'Paid through a payment intent (POST /v1/payment_intents, then confirm).' });

/** How a sale or an upgrade was paid for: money taken elsewhere, or a payment intent of `price`. */
const payment = (price: string) =>
  z.discriminatedUnion('type', [externalPayment(`Minor units of the event’s currency; must equal ${price}.`), intentPayment(price)], {
    error: 'must say how it was paid: type external (with reference and amount) or payment_intent (with payment_intent)',
  });

/** The payment as ticketing's requests carry it: money taken elsewhere, or a payment intent's id ('' when none). */
function paymentFields(given: z.output<ReturnType<typeof payment>> | undefined): { payment: { reference: string; amount: number } | undefined; payment_intent_id: string } {
  if (given?.type === 'payment_intent') return { payment: undefined, payment_intent_id: given.payment_intent };
  return { payment: given && { reference: given.reference, amount: given.amount }, payment_intent_id: '' };
}

const upgradeTicketBody = z
  .strictObject({
    tier_id: resourceId('tier').meta({ description: 'A higher-rank, unseated tier of the ticket’s event (GET /v1/tickets/{id}/upgrade-options). Seated tickets are not upgraded.' }),
    payment: payment('the price difference')
      .optional()
      .meta({ description: 'Required when the upgrade costs something (its price_difference): money taken elsewhere, or a payment intent of exactly the difference.' }),
  })
  .meta({ example: { tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U4', payment: { type: 'external', reference: 'upgrade-8812', amount: 4500 } } });

const issueTicketsBody = z
  .strictObject({
    tier_id: holderFields.tier_id,
    seat_hold_id: holderFields.seat_hold_id,
    quantity: wholeNumber(1, MAX_ORDER_QUANTITY).meta({ description: 'Within the tier’s min_per_order and max_per_order.', example: 2 }),
    ...holderFields.holder,
    payment: payment('the order’s total, discounts included')
      .optional()
      .meta({ description: 'Required when the order costs something: leave it out only when its total, discounts included, is 0. Money taken elsewhere (external), or a payment intent of this API.' }),
    discount_code: discountCode.optional().meta({
      description: 'A code the buyer entered. The best applicable discount, this one or an automatic one, prices the order and counts one redemption.',
      example: 'SUMMER25',
    }),
    admission_token: admissionToken
      .optional()
      .meta({ description: 'Required while the event’s waiting room is enabled: the token of your admitted queue entry (GET /v1/events/{id}/queue?entry_id=). Each admission lets one issuance through.' }),
    metadata: metadata
      .optional()
      .meta({ description: 'Up to 50 keys of your own (1 to 40 characters each, values up to 500), kept with the issuance and returned in its answer.' }),
  })
  .superRefine(requireOneHolder)
  .meta({
    example: { tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3', quantity: 2, customer: { email: 'ann@example.com', name: 'Ann Lee' }, payment: { type: 'external', reference: 'order-8812', amount: 9000 } },
  });

const transferTicketBody = z
  .strictObject(holderFields.holder)
  .superRefine(requireOneHolder)
  .meta({ example: { customer: { email: 'bo@example.com', name: 'Bo Chen' } } });

const reason = (description: string) => text(500).meta({ description, example: 'Duplicate purchase' });
const refundTicketBody = z.strictObject({ reason: reason('Why, for your records.').optional() });
const revokeTicketBody = z.strictObject({ reason: reason('Why the ticket is revoked.') }).meta({ example: { reason: 'Resold in breach of the terms' } });

/** The lifecycle refusals every change of a ticket can answer (decision 0032). */
const CHANGE_ERRORS = ['ticket_not_valid', 'ticket_changed'] as const;

const listTicketsQuery = listQuery.extend({
  event_id: resourceId('evt').optional().meta({ description: 'Only tickets of this event.' }),
  customer: resourceId('cus').optional().meta({ description: 'Only tickets held by this customer.' }),
  tier_id: resourceId('tier').optional().meta({ description: 'Only tickets of this tier.' }),
  status: z.enum(TICKET_STATUSES, { error: `must be one of ${TICKET_STATUSES.join(', ')}` }).optional(),
});

export const ticketsRoutes = [
  defineRoute({
    operationId: 'listTickets',
    method: 'get',
    path: '/v1/tickets',
    summary: 'List tickets, optionally of one event',
    tag: TAG,
    access: secretKey('tickets:read'),
    query: listTicketsQuery,
    response: listOf(ticket),
    handler: async ({ query }, { services }) =>
      toListEnvelope(
        await services.tickets.listTickets({
          page: pageRequest(query),
          event_id: query.event_id ?? '',
          customer_id: query.customer ?? '',
          tier_id: query.tier_id ?? '',
          status: query.status ?? '',
        }),
        presentTicket,
      ),
  }),
  defineRoute({
    operationId: 'getTicket',
    method: 'get',
    path: '/v1/tickets/{id}',
    summary: 'Retrieve a ticket',
    tag: TAG,
    access: secretKey('tickets:read'),
    response: ticket,
    handler: async ({ params }, { services }) => presentTicket(await services.tickets.getTicket({ id: params.id })),
  }),
  defineRoute({
    operationId: 'createTicketDeliveryLink',
    method: 'post',
    path: '/v1/tickets/{id}/delivery_link',
    summary: 'Create a signed, expiring link to a page showing the ticket and its QR code',
    tag: TAG,
    access: secretKey('tickets:read'),
    body: z.strictObject({
      ttl_seconds: wholeNumber(60, 90 * 24 * 3600).optional().meta({ description: 'How long the link works: 7 days by default, 90 days at most.', example: 604800 }),
    }),
    response: deliveryLinkResource,
    handler: async ({ params, body }, { services }) => presentDeliveryLink(await services.tickets.createDeliveryLink({ id: params.id, ttl_seconds: body.ttl_seconds ?? 0 })),
  }),
  defineRoute({
    operationId: 'issueTickets',
    method: 'post',
    path: '/v1/events/{id}/tickets',
    summary: 'Issue tickets paid for elsewhere; never more than the tier’s capacity',
    tag: TAG,
    access: secretKey('tickets:issue'),
    errors: [
      'resource_missing',
      'sold_out',
      'event_not_on_sale',
      'tier_not_on_sale',
      'discount_not_applicable',
      'issuance_expired',
      'seat_hold_unavailable',
      'admission_token_required',
      'admission_token_invalid',
      'admission_token_used',
      'admission_holds_seats',
      'payment_intent_used',
      'payment_intent_unexpected_state',
    ],
    body: issueTicketsBody,
    response: ticketIssuanceResource,
    handler: async ({ params, body }, { services, key }) =>
      presentTicketIssuance(
        await services.tickets.issueTickets({
          event_id: params.id,
          tier_id: body.tier_id,
          quantity: body.quantity,
          customer: holderOf(body),
          ...paymentFields(body.payment),
          metadata: body.metadata ?? {},
          seat_hold_id: body.seat_hold_id ?? '',
          admission_token: body.admission_token ?? '',
          discount_code: body.discount_code ?? '',
        }),
        key!.mode === 'live',
      ),
  }),
  defineRoute({
    operationId: 'transferTicket',
    method: 'post',
    path: '/v1/tickets/{id}/transfer',
    summary: 'Give a valid ticket to another holder; it gets a new code and the old one stops scanning',
    tag: TAG,
    access: secretKey('tickets:manage'),
    errors: ['resource_missing', 'ticket_already_held', ...CHANGE_ERRORS],
    body: transferTicketBody,
    response: ticket,
    handler: async ({ params, body }, { services }) => presentTicket(await services.tickets.transferTicket({ id: params.id, customer: holderOf(body) })),
  }),
  defineRoute({
    operationId: 'refundTicket',
    method: 'post',
    path: '/v1/tickets/{id}/refund',
    summary: 'Record the refund of a valid ticket (paid outside this API or comp) and put its unit back on sale',
    tag: TAG,
    access: secretKey('tickets:manage'),
    errors: CHANGE_ERRORS,
    body: refundTicketBody,
    response: ticket,
    handler: async ({ params, body }, { services }) => presentTicket(await services.tickets.refundTicket({ id: params.id, reason: body.reason ?? '' })),
  }),
  defineRoute({
    operationId: 'revokeTicket',
    method: 'post',
    path: '/v1/tickets/{id}/revoke',
    summary: 'Revoke a valid ticket without refund and put its unit back on sale',
    tag: TAG,
    access: secretKey('tickets:manage'),
    errors: CHANGE_ERRORS,
    body: revokeTicketBody,
    response: ticket,
    handler: async ({ params, body }, { services }) => presentTicket(await services.tickets.revokeTicket({ id: params.id, reason: body.reason })),
  }),
  defineRoute({
    operationId: 'upgradeTicket',
    method: 'post',
    path: '/v1/tickets/{id}/upgrade',
    summary: 'Move a valid ticket to a higher-rank tier, paying the difference; it gets a new code',
    tag: TAG,
    access: secretKey('tickets:manage'),
    errors: ['resource_missing', 'sold_out', 'tier_not_on_sale', 'event_not_on_sale', 'upgrade_expired', 'payment_intent_used', 'payment_intent_unexpected_state', ...CHANGE_ERRORS],
    body: upgradeTicketBody,
    response: ticket,
    handler: async ({ params, body }, { services }) =>
      presentTicket(
        await services.tickets.upgradeTicket({
          id: params.id,
          tier_id: body.tier_id,
          ...paymentFields(body.payment),
        }),
      ),
  }),
  defineRoute({
    operationId: 'listTicketUpgradeOptions',
    method: 'get',
    path: '/v1/tickets/{id}/upgrade-options',
    summary: 'List the higher-rank unseated tiers a valid ticket can move to, with the price difference and what is left',
    tag: TAG,
    access: secretKey('tickets:manage'),
    errors: CHANGE_ERRORS,
    query: listQuery,
    response: listOf(upgradeOptionResource),
    handler: async ({ params, query }, { services }) =>
      toListEnvelope(await services.tickets.listUpgradeOptions({ id: params.id, page: pageRequest(query) }), presentUpgradeOption),
  }),
];
