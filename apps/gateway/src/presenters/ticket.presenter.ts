import { z } from 'zod';
import { TICKET_STATUSES, type TicketStatus, type ticketingV1 } from '@ticketing/contracts';
import { nullIfEmpty, oneOf } from './fields';
import { resourceFields, timestamp } from './resource.schema';

const ticketExample = {
  id: 'tkt_01JD3WD7G9J1L3N5Q7S9U1W3Y5',
  object: 'ticket',
  livemode: false,
  event_id: 'evt_01JD3W9ZQ4X8V5K2M7N6P1R0ST',
  tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U3',
  customer: 'cus_01JD3WC1E3G5J7L9N1Q3S5U7W9',
  issuance_id: 'iss_01JD3WD7G9J1L3N5Q7S9U1W3Y4',
  status: 'valid',
  price: 4500,
  currency: 'EUR',
  code: 'eyJhbGciOiJFUzI1NiIsImtpZCI6Ik5RbXNQUmZkM0tGb3JsbGgifQ.eyJzdWIiOiJ0a3RfMDFKRDNXRDdHOUoxTDNONVE3UzlVMVczWTUiLCJldnQiOiJldnRfMDFKRDNXOVpRNFg4VjVLMk03TjZQMVIwU1QiLCJ2ZXIiOjF9.cY3kYhO2dl4I7q2kJ1b3Zq5XK9lW8bW0mE0gk8pYQe3dJ2c5nXQ1t7kq0x8QxQ1XfJmGqXjZs3z1p6tV9Xx6cA',
  code_version: 1,
  seat: null,
  created_at: '2027-03-01T10:00:02.000Z',
  updated_at: '2027-03-01T10:00:02.000Z',
} as const;

export const ticketResource = z
  .object({
    ...resourceFields('ticket'),
    event_id: z.string(),
    tier_id: z.string(),
    customer: z.string().meta({ description: 'The holder: a customer id.' }),
    issuance_id: z.string().meta({ description: 'The issuance (order) the ticket came from; tickets issued together share it.' }),
    status: z.enum(TICKET_STATUSES).meta({ description: 'valid until checked in, refunded, revoked or canceled.' }),
    price: z.number().int().meta({ description: 'What was paid for this ticket, in minor units of `currency`: its share of the order, plus what any upgrade charged; 0 for a comp until an upgrade, which charges the new tier’s whole price.' }),
    currency: z.string().meta({ example: 'EUR' }),
    code: z.string().meta({
      description:
        'What the door scans (show it as a QR code): an ES256 JWT naming the ticket (`sub`), its event (`evt`) and `code_version` (`ver`), verifiable offline with the keys of GET /v1/scan/keys. A new one is issued when the ticket changes hands or tier, and the old one stops scanning.',
    }),
    code_version: z.number().int().meta({ description: 'Raised whenever the holder or tier changes.', example: 1 }),
    seat: z.string().nullable().meta({ description: 'The seat "<section>:<row>:<seat>" of a ticket of a seated tier; null otherwise.', example: 'Stalls:A:1' }),
    updated_at: timestamp,
  })
  .meta({ id: 'Ticket', example: ticketExample });

export const ticketIssuanceResource = z
  .object({
    id: z.string().meta({ description: 'The issuance id, shared by its tickets.' }),
    object: z.literal('ticket_issuance'),
    livemode: z.boolean().meta({ description: 'true in live mode, false in test mode.' }),
    tickets: z.array(ticketResource),
    metadata: z.record(z.string(), z.string()).meta({ description: 'Your own keys, as the issuance request gave them ({} when it gave none); the ticket.issued event carries them too.', example: { channel: 'box-office' } }),
  })
  .meta({ id: 'TicketIssuance', example: { id: ticketExample.issuance_id, object: 'ticket_issuance', livemode: false, tickets: [ticketExample], metadata: { channel: 'box-office' } } });

export function presentTicket(ticket: ticketingV1.Ticket): z.output<typeof ticketResource> {
  return {
    id: ticket.id,
    object: 'ticket',
    livemode: ticket.livemode,
    event_id: ticket.event_id,
    tier_id: ticket.tier_id,
    customer: ticket.customer_id,
    issuance_id: ticket.issuance_id,
    status: oneOf<TicketStatus>(TICKET_STATUSES, ticket.status, 'ticket status'),
    price: ticket.price,
    currency: ticket.currency,
    code: ticket.code,
    code_version: ticket.code_version,
    seat: nullIfEmpty(ticket.seat),
    created_at: ticket.created_at,
    updated_at: ticket.updated_at,
  };
}

export function presentTicketIssuance(issued: ticketingV1.IssuedTickets, livemode: boolean): z.output<typeof ticketIssuanceResource> {
  return { id: issued.issuance_id, object: 'ticket_issuance', livemode, tickets: issued.tickets.map(presentTicket), metadata: issued.metadata };
}

export const compResource = z
  .object({
    ...resourceFields('comp'),
    event_id: z.string(),
    tier_id: z.string(),
    customer: z.string().meta({ description: 'The guest: a customer id.' }),
    quantity: z.number().int().meta({ example: 2 }),
    reason: z.string().meta({ example: 'Artist guest list' }),
    tickets: z.array(ticketResource).meta({ description: 'The tickets this comp issued, price 0 when issued, as they are now: one upgraded since is in its new tier at the price the upgrade charged.' }),
  })
  .meta({
    id: 'Comp',
    example: {
      id: ticketExample.issuance_id,
      object: 'comp',
      livemode: false,
      event_id: ticketExample.event_id,
      tier_id: ticketExample.tier_id,
      customer: ticketExample.customer,
      quantity: 1,
      reason: 'Artist guest list',
      tickets: [{ ...ticketExample, price: 0 }],
      created_at: ticketExample.created_at,
    },
  });

export function presentComp(comp: ticketingV1.Comp): z.output<typeof compResource> {
  return {
    id: comp.id,
    object: 'comp',
    livemode: comp.livemode,
    event_id: comp.event_id,
    tier_id: comp.tier_id,
    customer: comp.customer_id,
    quantity: comp.quantity,
    reason: comp.reason,
    tickets: comp.tickets.map(presentTicket),
    created_at: comp.created_at,
  };
}

export const ticketCodeKeySetResource = z
  .object({
    object: z.literal('ticket_code_key_set'),
    keys: z
      .array(
        z.object({
          kty: z.literal('EC'),
          crv: z.literal('P-256'),
          x: z.string(),
          y: z.string(),
          kid: z.string().meta({ description: 'Named by the `kid` header of the codes it verifies.' }),
          alg: z.literal('ES256'),
          use: z.literal('sig'),
        }),
      )
      .meta({ description: 'The signing key first, then retired keys whose codes may still circulate.' }),
  })
  .meta({
    id: 'TicketCodeKeySet',
    description:
      'A JSON Web Key Set (RFC 7517; JOSE libraries read it as it is). Door devices fetch it while online and verify ticket codes (ES256 JWTs) against it offline; refetch it when a code names a `kid` the device does not hold. Keys rotate by adding a new signing key while the retired one stays listed until its codes are gone.',
    example: {
      object: 'ticket_code_key_set',
      keys: [{ kty: 'EC', crv: 'P-256', x: 'PfHtWuzcastpfO13CzGtwmTziMzKqLiYTv0dChJT5MY', y: 'QWH1LkQKq4Fx7CnJ8R4F77UaQcxUWnCDyS8TYz17A48', kid: 'NQmsPRfd3KForllh', alg: 'ES256', use: 'sig' }],
    },
  });

function codeKeyOf(key: ticketingV1.CodeKey): z.output<typeof ticketCodeKeySetResource>['keys'][number] {
  if (key.kty !== 'EC' || key.crv !== 'P-256' || key.alg !== 'ES256' || key.use !== 'sig') throw new Error(`ticketing answered a code key of an unknown kind (${key.kty}/${key.crv}/${key.alg})`);
  return { kty: key.kty, crv: key.crv, x: key.x, y: key.y, kid: key.kid, alg: key.alg, use: key.use };
}

export function presentTicketCodeKeySet(set: ticketingV1.CodeKeySet): z.output<typeof ticketCodeKeySetResource> {
  return { object: 'ticket_code_key_set', keys: set.keys.map(codeKeyOf) };
}

export const upgradeOptionResource = z
  .object({
    id: z.string().meta({ description: 'The tier’s id, as `tier_id`: what `starting_after` takes.' }),
    object: z.literal('upgrade_option'),
    tier_id: z.string(),
    name: z.string(),
    rank: z.number().int().meta({ description: 'Above the ticket’s tier’s rank.' }),
    price: z.number().int().meta({ description: 'The tier’s price, in minor units of `currency`.' }),
    currency: z.string(),
    price_difference: z.number().int().meta({ description: 'What the upgrade costs: this price less what the ticket was sold for (its price), never below 0.' }),
    available: z.number().int().meta({ description: 'Units of the tier on sale now.' }),
  })
  .meta({
    id: 'UpgradeOption',
    example: { id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U4', object: 'upgrade_option', tier_id: 'tier_01JD3WB5C7E9G1J3L5N7Q9S1U4', name: 'VIP', rank: 2, price: 9000, currency: 'EUR', price_difference: 4500, available: 12 },
  });

export function presentUpgradeOption(option: ticketingV1.UpgradeOption): z.output<typeof upgradeOptionResource> {
  return { id: option.tier_id, object: 'upgrade_option', ...option };
}

export const deliveryLinkResource = z
  .object({
    object: z.literal('ticket_delivery_link'),
    livemode: z.boolean(),
    ticket_id: z.string(),
    url: z.string().meta({ description: 'Opens a page with the event, the holder and the QR code of the ticket’s current code. Send it to the holder; anyone with it sees the ticket until it expires, or until the ticket is transferred: a transfer ends the link, so make a new one for the new holder.' }),
    expires_at: timestamp,
  })
  .meta({
    id: 'TicketDeliveryLink',
    example: {
      object: 'ticket_delivery_link',
      livemode: false,
      ticket_id: 'tkt_01JD3WD7G9J1L3N5Q7S9U1W3Y5',
      url: 'https://api.example.com/d/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0a3RfMDFKRDNXRDdHOUoxTDNONVE3UzlVMVczWTUifQ.sig',
      expires_at: '2027-03-08T10:00:00.000Z',
    },
  });

export function presentDeliveryLink(link: ticketingV1.DeliveryLink): z.output<typeof deliveryLinkResource> {
  return { object: 'ticket_delivery_link', livemode: link.livemode, ticket_id: link.ticket_id, url: link.url, expires_at: link.expires_at };
}
