import { prismaClientOptions } from '@ticketing/db';
import { PrismaClient, type Prisma } from './generated/prisma/client';

/** The client or an open transaction: repositories work on either. */
export type PaymentsDb = Prisma.TransactionClient;

export function createPaymentsPrisma(databaseUrl: string): PrismaClient {
  return new PrismaClient(prismaClientOptions(databaseUrl));
}

export type { PrismaClient };
