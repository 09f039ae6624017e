import type { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import { paymentsV1 } from '@ticketing/contracts';
import { idempotentWrites } from '@ticketing/db';
import { currentIdempotentCall, implementService, type GrpcServerOptions } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import type { PaymentCore } from '../payment-core';
import { ConfirmPaymentIntentUseCase } from '../usecases/confirm-payment-intent/confirm-payment-intent.usecase';
import { CreatePaymentIntentUseCase } from '../usecases/create-payment-intent/create-payment-intent.usecase';
import { GetPaymentIntentUseCase } from '../usecases/get-payment-intent/get-payment-intent.usecase';
import { GetPaymentUseCase } from '../usecases/get-payment/get-payment.usecase';
import { toPaymentIntentMessage, toPaymentMessage } from './messages';

/**
 * Every gRPC service payments serves; transport only. Creations made under an Idempotency-Key are
 * recorded with their result; a confirmation is found again by its charge (decision 0061).
 */
export function paymentsGrpcServices(
  client: PrismaClient,
  core: Pick<PaymentCore, 'processors' | 'settle'>,
  options: GrpcServerOptions,
): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }> {
  const recorded = idempotentWrites(client, currentIdempotentCall);
  const createIntent = new CreatePaymentIntentUseCase(recorded, core.processors);
  const confirmIntent = new ConfirmPaymentIntentUseCase(client, core.processors, core.settle, currentIdempotentCall);
  const getIntent = new GetPaymentIntentUseCase(client);
  const getPayment = new GetPaymentUseCase(client);
  return [
    {
      definition: paymentsV1.PaymentIntentServiceService,
      implementation: implementService<paymentsV1.PaymentIntentServiceServer>(
        {
          createPaymentIntent: async (request, context) => toPaymentIntentMessage(await createIntent.execute(context.tenant, request)),
          confirmPaymentIntent: async (request, context) => toPaymentIntentMessage(await confirmIntent.execute(context.tenant, request)),
          getPaymentIntent: async (request, context) => toPaymentIntentMessage(await getIntent.execute(context.tenant, request.id)),
        },
        options,
      ),
    },
    {
      definition: paymentsV1.PaymentServiceService,
      implementation: implementService<paymentsV1.PaymentServiceServer>(
        { getPayment: async (request, context) => toPaymentMessage(await getPayment.execute(context.tenant, request.id)) },
        options,
      ),
    },
  ];
}
