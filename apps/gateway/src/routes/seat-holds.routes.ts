import { z } from 'zod';
import { SEAT_HOLD_PURPOSES } from '@ticketing/contracts';
import { presentSeatHold, seatHoldResource } from '../presenters/seat-hold.presenter';
import { deletedResource } from '../presenters/resource.schema';
import { admissionToken, wholeNumber } from '../validation/fields';
import { defineRoute, secretKey } from './route';

const TAG = 'Seat holds';

const createSeatHoldBody = z
  .strictObject({
    seats: z
      .array(z.string().meta({ example: 'Stalls:A:1' }))
      .meta({ description: 'Seat ids "<section>:<row>:<seat>" from GET /v1/events/{id}/seatmap: 1 to 50, each once. All are held, or none.' }),
    ttl_seconds: wholeNumber(1, 1800).optional().meta({ description: 'How long the seats stay held unless released: 600 (ten minutes) by default, 1800 at most.', example: 600 }),
    admission_token: admissionToken.optional().meta({
      description:
        'Required for a sale while the event’s waiting room is enabled: the token of the buyer’s admitted queue entry (GET /v1/events/{id}/queue?entry_id=). Holding uses no admission; the issuance that sells the hold needs the same token.',
    }),
    purpose: z.enum(SEAT_HOLD_PURPOSES).optional().meta({
      description:
        '`sale` (the default), or `comp`: seats held for the guest list (POST /v1/events/{id}/comps), which do not queue, so they need no admission_token while the waiting room is enabled; only a comp can take such a hold. Seats are held as their tickets are had: for a sale, the event must be published and the seats’ tier on sale now (409 event_not_on_sale, tier_not_on_sale); for comps, any event not canceled or completed.',
      example: 'sale',
    }),
  })
  .meta({ example: { seats: ['Stalls:A:1', 'Stalls:A:2'], ttl_seconds: 600 } });

export const seatHoldsRoutes = [
  defineRoute({
    operationId: 'createSeatHold',
    method: 'post',
    path: '/v1/events/{id}/seats/hold',
    summary: 'Hold seats, all or none, while a buyer checks out; 409 seats_unavailable names the seats taken',
    tag: TAG,
    access: secretKey('tickets:issue'),
    errors: ['seats_unavailable', 'event_not_on_sale', 'tier_not_on_sale', 'admission_token_required', 'admission_token_invalid', 'admission_token_used', 'admission_holds_seats'],
    body: createSeatHoldBody,
    response: seatHoldResource,
    handler: async ({ params, body }, { services }) =>
      presentSeatHold(
        await services.seatHolds.createSeatHold({
          event_id: params.id,
          seat_ids: body.seats,
          ttl_seconds: body.ttl_seconds ?? 0,
          admission_token: body.admission_token ?? '',
          purpose: body.purpose ?? 'sale',
        }),
      ),
  }),
  defineRoute({
    operationId: 'releaseSeatHold',
    method: 'delete',
    path: '/v1/events/{id}/seats/hold/{holdId}',
    summary: 'Release held seats now; releasing a hold already ended answers the same',
    tag: TAG,
    access: secretKey('tickets:issue'),
    errors: ['seat_hold_unavailable'],
    response: deletedResource('seat_hold').meta({ example: { id: 'hold_01JD3WE2F4H6K8M0P2R4T6V8X0', object: 'seat_hold', deleted: true } }),
    handler: async ({ params }, { services }) => {
      const hold = await services.seatHolds.releaseSeatHold({ event_id: params.id, hold_id: params.holdId });
      return { id: hold.id, object: 'seat_hold' as const, deleted: true as const };
    },
  }),
];
