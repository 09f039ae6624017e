import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { paymentsV1 } from '@ticketing/contracts';
import { EarlyKeyClaims, idempotentWrites } from '@ticketing/db';
import { currentIdempotentCall, implementService, type GrpcServerOptions } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import type { PaymentCore } from '../payment-core';
import { ClaimPaymentIntentUseCase } from '../usecases/claim-payment-intent/claim-payment-intent.usecase';
import { CancelPaymentIntentUseCase } from '../usecases/cancel-payment-intent/cancel-payment-intent.usecase';
import { ConfirmPaymentIntentUseCase } from '../usecases/confirm-payment-intent/confirm-payment-intent.usecase';
import { CreatePaymentIntentUseCase } from '../usecases/create-payment-intent/create-payment-intent.usecase';
import { GetPaymentIntentUseCase } from '../usecases/get-payment-intent/get-payment-intent.usecase';
import { GetPaymentUseCase } from '../usecases/get-payment/get-payment.usecase';
import { GetBalanceUseCase } from '../usecases/get-balance/get-balance.usecase';
import { CreatePayoutUseCase } from '../usecases/create-payout/create-payout.usecase';
import { ListPayoutsUseCase } from '../usecases/list-payouts/list-payouts.usecase';
import { GetConnectAccountUseCase } from '../usecases/get-connect-account/get-connect-account.usecase';
import { SaveConnectAccountUseCase } from '../usecases/save-connect-account/save-connect-account.usecase';
import { toConnectAccountMessage, toPaymentIntentMessage, toPaymentMessage, toPayoutMessage, toRefundMessage } from './messages';

/**
 * How long an order intent's creation holds its Idempotency-Key's claim: far longer than the
 * call's deadline, so a slow call is never taken over while it runs; a call that died frees its
 * key this soon, its held units given back by the retry that takes the claim over.
 */
const KEY_CLAIM_LEASE_SECONDS = 30;

/**
 * Every gRPC service payments serves; transport only. Creations made under an Idempotency-Key are
 * recorded with their result; a confirmation is found again by its charge (decision 0061).
 */
export function paymentsGrpcServices(
  client: PrismaClient,
  core: Pick<PaymentCore, 'settings' | 'processors' | 'drive' | 'catalog' | 'seatHolds' | 'refunds'>,
  options: GrpcServerOptions,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const recorded = idempotentWrites(client, currentIdempotentCall);
  // An order intent holds units in catalog before it records anything: its key is claimed first (decision 0041).
  const keys = new EarlyKeyClaims(client, currentIdempotentCall, KEY_CLAIM_LEASE_SECONDS, (details, message) => options.logger.warn(details, message));
  const createIntent = new CreatePaymentIntentUseCase(recorded, core.processors, core.catalog, keys, core.seatHolds, core.settings.orderLifetimeSeconds);
  const confirmIntent = new ConfirmPaymentIntentUseCase(client, core.processors, core.drive, currentIdempotentCall);
  const getIntent = new GetPaymentIntentUseCase(client);
  const claims = new ClaimPaymentIntentUseCase(client);
  const cancelIntent = new CancelPaymentIntentUseCase(recorded, core.processors, core.catalog, core.seatHolds, options.logger);
  const getPayment = new GetPaymentUseCase(client);
  const getBalance = new GetBalanceUseCase(client);
  const createPayout = new CreatePayoutUseCase(recorded, core.processors);
  const listPayouts = new ListPayoutsUseCase(client);
  const getConnectAccount = new GetConnectAccountUseCase(client);
  const saveConnectAccount = new SaveConnectAccountUseCase(recorded, core.processors);
  return [
    {
      definition: paymentsV1.PaymentIntentServiceService,
      implementation: implementService<paymentsV1.PaymentIntentServiceServer>(
        {
          createPaymentIntent: async (request, context) => toPaymentIntentMessage(await createIntent.execute(context.claims, context.tenant, request)),
          confirmPaymentIntent: async (request, context) => toPaymentIntentMessage(await confirmIntent.execute(context.claims, context.tenant, request)),
          getPaymentIntent: async (request, context) => toPaymentIntentMessage(await getIntent.execute(context.tenant, request.id)),
          claimPaymentIntent: async (request, context) => toPaymentIntentMessage(await claims.claim(context.tenant, request)),
          releasePaymentIntentClaim: async (request, context) => toPaymentIntentMessage(await claims.release(context.tenant, request.id, request.claimed_by)),
          cancelPaymentIntent: async (request, context) => toPaymentIntentMessage(await cancelIntent.execute(context.claims, context.tenant, request.id, 'requested_by_customer')),
        },
        options,
      ),
    },
    {
      definition: paymentsV1.BalanceServiceService,
      implementation: implementService<paymentsV1.BalanceServiceServer>(
        { getBalance: async (_request, context) => ({ livemode: context.tenant.mode === 'live', ...(await getBalance.execute(context.tenant)) }) },
        options,
      ),
    },
    {
      definition: paymentsV1.PayoutServiceService,
      implementation: implementService<paymentsV1.PayoutServiceServer>(
        {
          createPayout: async (request, context) => toPayoutMessage(await createPayout.execute(context.tenant, request)),
          listPayouts: async (request, context) => {
            const page = await listPayouts.execute(context.tenant, request.page);
            return { data: page.data.map(toPayoutMessage), has_more: page.has_more };
          },
        },
        options,
      ),
    },
    {
      definition: paymentsV1.ConnectAccountServiceService,
      implementation: implementService<paymentsV1.ConnectAccountServiceServer>(
        {
          getConnectAccount: async (_request, context) => toConnectAccountMessage(await getConnectAccount.execute(context.tenant)),
          saveConnectAccount: async (request, context) => toConnectAccountMessage(await saveConnectAccount.execute(context.tenant, request)),
        },
        options,
      ),
    },
    {
      definition: paymentsV1.PaymentServiceService,
      implementation: implementService<paymentsV1.PaymentServiceServer>(
        {
          getPayment: async (request, context) => {
            const { payment, refunds } = await getPayment.execute(context.tenant, request.id);
            return toPaymentMessage(payment, refunds);
          },
          refundPayment: async (request, context) => toRefundMessage(await core.refunds.forClient(context.tenant, request, currentIdempotentCall())),
        },
        options,
      ),
    },
  ];
}
