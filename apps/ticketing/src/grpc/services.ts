import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Logger } from '@ticketing/observability';
import pLimit from 'p-limit';
import { ticketingV1 } from '@ticketing/contracts';
import { EarlyKeyClaims, idempotentWrites } from '@ticketing/db';
import { currentIdempotentCall, implementService, type GrpcServerOptions } from '@ticketing/grpc';
import type { TicketCodeSigner } from '@ticketing/ticket-codes';
import type { PaymentClaims } from '../payments/payment-intents';
import type { CatalogInventory } from '../catalog/catalog-inventory';
import type { PrismaClient } from '../db';
import { RetireTicketUseCase } from '../usecases/change-ticket/retire-ticket.usecase';
import { TransferTicketUseCase } from '../usecases/change-ticket/transfer-ticket.usecase';
import { DriveUpgradeUseCase } from '../usecases/change-ticket/drive-upgrade.usecase';
import { UpgradeTicketUseCase } from '../usecases/change-ticket/upgrade-ticket.usecase';
import { CreateCustomerUseCase } from '../usecases/create-customer/create-customer.usecase';
import { CreateDeliveryLinkUseCase } from '../usecases/create-delivery-link/create-delivery-link.usecase';
import type { DeliveryLinks } from '../delivery/delivery-links';
import { DriveIssuanceUseCase } from '../usecases/drive-issuance/drive-issuance.usecase';
import { GetCustomerUseCase } from '../usecases/get-customer/get-customer.usecase';
import { GetTicketUseCase } from '../usecases/get-ticket/get-ticket.usecase';
import { IssueTicketsUseCase } from '../usecases/issue-tickets/issue-tickets.usecase';
import { ListCompsUseCase } from '../usecases/list-comps/list-comps.usecase';
import { ListTicketsUseCase } from '../usecases/list-tickets/list-tickets.usecase';
import { ListUpgradeOptionsUseCase } from '../usecases/list-upgrade-options/list-upgrade-options.usecase';
import { ReturnUnitsUseCase } from '../usecases/return-units/return-units.usecase';
import { CreateSeatHoldUseCase } from '../usecases/seat-holds/create-seat-hold.usecase';
import { OrderSeatHoldUseCase } from '../usecases/seat-holds/order-seat-hold.usecase';
import { ReleaseSeatHoldUseCase } from '../usecases/seat-holds/release-seat-hold.usecase';
import { AdmissionGate } from '../usecases/waiting-room/admission-gate';
import { WaitingRoomUseCase } from '../usecases/waiting-room/waiting-room.usecase';
import type { AdmissionTokens } from '../waiting-room/admission-tokens';
import type { QueueStore } from '../waiting-room/queue-store';
import { toCompMessage, toCustomerMessage, toIssuedTicketsMessage, toQueueEntryMessage, toQueueMessage, toSeatHoldMessage, toTicketMessage } from './messages';

/** Driving upgrades on, for a call (whose write is the upgrade's record) and for the re-driver; gets the unrecorded client. */
export function driveUpgrade(client: PrismaClient, { catalog, codes, payments }: Pick<TicketingDependencies, 'catalog' | 'codes' | 'payments'>, logger: Logger): DriveUpgradeUseCase {
  return new DriveUpgradeUseCase(client, catalog, codes, new ReturnUnitsUseCase(client, catalog, logger), payments, logger);
}

/** What the use cases need beyond the database. */
export interface TicketingDependencies {
  catalog: CatalogInventory;
  codes: TicketCodeSigner;
  queues: QueueStore;
  admissionTokens: AdmissionTokens;
  deliveryLinks: DeliveryLinks;
  /** How many held issuances do their database work at once; the rest wait their turn. */
  issuanceConcurrency: number;
  /** Payment intents that pay for issuances (decision 0064). */
  payments: PaymentClaims;
}

/**
 * How long a sale's or an upgrade's early claim of its Idempotency-Key stands (decision 0041):
 * twice the gateway's default deadline for a call, so a client's retry finds the first call
 * still on its way rather than taking the key over from it. A call that outlives its claim
 * cannot record anything, so a shorter lease costs at most wasted work, and frees the key of a
 * call whose process died sooner.
 */
export const KEY_CLAIM_LEASE_SECONDS = 20;

/**
 * Every gRPC service ticketing serves. Transport only: decode, call one use case with the
 * token's tenant, encode. Writes made under an Idempotency-Key are recorded with their result;
 * driving an issuance on is not such a write (its record is the issuance), so it gets `client`.
 */
export function ticketingGrpcServices(
  client: PrismaClient,
  { catalog, codes, queues, admissionTokens, deliveryLinks, issuanceConcurrency, payments }: TicketingDependencies,
  options: GrpcServerOptions,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const prisma = idempotentWrites(client, currentIdempotentCall);
  // Sales and upgrades hold units in catalog before they record anything, and seat holds and
  // transfers check what may have changed since they were made: their keys are claimed first (decision 0041).
  const keys = new EarlyKeyClaims(client, currentIdempotentCall, KEY_CLAIM_LEASE_SECONDS, (details, message) => options.logger.warn(details, message));
  const createCustomer = new CreateCustomerUseCase(prisma);
  const getCustomer = new GetCustomerUseCase(prisma);
  const gate = new AdmissionGate(client, admissionTokens, queues);
  const issueTickets = new IssueTicketsUseCase(
    prisma,
    catalog,
    new DriveIssuanceUseCase(client, catalog, codes, payments),
    gate,
    options.logger,
    keys,
    pLimit(issuanceConcurrency),
  );
  const getTicket = new GetTicketUseCase(prisma);
  const listTickets = new ListTicketsUseCase(prisma);
  const listComps = new ListCompsUseCase(prisma, catalog);
  const transferTicket = new TransferTicketUseCase(prisma, codes, catalog, options.logger, keys);
  // Giving a unit back is not the client's write (the retirement is): it gets `client`.
  const retireTicket = new RetireTicketUseCase(prisma, new ReturnUnitsUseCase(client, catalog, options.logger), catalog, options.logger);
  const createSeatHold = new CreateSeatHoldUseCase(prisma, catalog, gate, keys);
  const releaseSeatHold = new ReleaseSeatHoldUseCase(prisma);
  const orderSeatHolds = new OrderSeatHoldUseCase(client);
  const waitingRoom = new WaitingRoomUseCase(client, catalog, queues, options.logger);
  const listUpgradeOptions = new ListUpgradeOptionsUseCase(prisma, catalog);
  const createDeliveryLink = new CreateDeliveryLinkUseCase(prisma, deliveryLinks);
  const upgradeTicket = new UpgradeTicketUseCase(prisma, catalog, driveUpgrade(client, { catalog, codes, payments }, options.logger), keys, options.logger);
  return [
    {
      definition: ticketingV1.CustomerServiceService,
      implementation: implementService<ticketingV1.CustomerServiceServer>(
        {
          createCustomer: async (request, context) => toCustomerMessage(await createCustomer.execute(context.tenant, request)),
          getCustomer: async (request, context) => toCustomerMessage(await getCustomer.execute(context.tenant, request.id)),
        },
        options,
      ),
    },
    {
      definition: ticketingV1.TicketServiceService,
      // Sales reach ticketing together (decision 0058): an on-sale rush costs one call per batch of them.
      implementation: implementService<ticketingV1.TicketServiceServer, 'issueTickets'>(
        {
          issueTickets: async (request, context) => toIssuedTicketsMessage(await issueTickets.sell(context.claims, context.tenant, request)),
          issueComps: async (request, context) => toCompMessage(await issueTickets.comp(context.claims, context.tenant, request)),
          listComps: async (request, context) => {
            const page = await listComps.execute(context.claims, context.tenant, request.event_id, request.page);
            return { data: page.data.map(toCompMessage), has_more: page.has_more };
          },
          getTicket: async (request, context) => toTicketMessage(await getTicket.execute(context.tenant, request.id)),
          listTickets: async (request, context) => {
            const page = await listTickets.execute(context.tenant, request, request.page);
            return { data: page.data.map(toTicketMessage), has_more: page.has_more };
          },
          listCodeKeys: async () => ({ keys: [...codes.publicKeys] }),
          createDeliveryLink: async (request, context) => {
            const link = await createDeliveryLink.execute(context.tenant, request);
            return { ticket_id: link.ticketId, livemode: context.tenant.mode === 'live', url: link.url, expires_at: link.expiresAt.toISOString() };
          },
          transferTicket: async (request, context) => toTicketMessage(await transferTicket.execute(context.claims, context.tenant, request)),
          refundTicket: async (request, context) => toTicketMessage(await retireTicket.execute(context.claims, context.tenant, 'refund', request)),
          revokeTicket: async (request, context) => toTicketMessage(await retireTicket.execute(context.claims, context.tenant, 'revoke', request)),
          upgradeTicket: async (request, context) => toTicketMessage(await upgradeTicket.execute(context.claims, context.tenant, request)),
          listUpgradeOptions: async (request, context) => {
            const page = await listUpgradeOptions.execute(context.claims, context.tenant, request.id, request.page);
            return { data: page.data, has_more: page.has_more };
          },
        },
        options,
        ['issueTickets'],
      ),
    },
    {
      definition: ticketingV1.SeatHoldServiceService,
      implementation: implementService<ticketingV1.SeatHoldServiceServer>(
        {
          createSeatHold: async (request, context) => toSeatHoldMessage(await createSeatHold.execute(context.claims, context.tenant, request)),
          releaseSeatHold: async (request, context) => toSeatHoldMessage(await releaseSeatHold.execute(context.tenant, request)),
          takeSeatHoldForOrder: async (request, context) => ({ issuance_id: await orderSeatHolds.take(context.tenant, request) }),
          letGoOfSeatHold: async (request, context) => toSeatHoldMessage(await orderSeatHolds.letGo(context.tenant, request.hold_id, request.issuance_id)),
        },
        options,
      ),
    },
    {
      definition: ticketingV1.WaitingRoomServiceService,
      implementation: implementService<ticketingV1.WaitingRoomServiceServer>(
        {
          joinQueue: async (request, context) =>
            toQueueEntryMessage(await waitingRoom.join(context.claims, context.tenant, request.event_id, currentIdempotentCall()), context.tenant, admissionTokens),
          getQueue: async (request, context) => toQueueMessage(await waitingRoom.read(context.claims, context.tenant, request.event_id, request.entry_id), context.tenant, admissionTokens),
          leaveQueue: async (request, context) => toQueueEntryMessage(await waitingRoom.leave(context.claims, context.tenant, request.event_id, request.entry_id), context.tenant, admissionTokens),
        },
        options,
      ),
    },
  ];
}
