import { prismaClientOptions } from '@ticketing/db';
import { PrismaClient, type Prisma } from './generated/prisma/client';

/** The client or an open transaction: repositories work on either. */
export type TicketingDb = Prisma.TransactionClient;

export function createTicketingPrisma(databaseUrl: string): PrismaClient {
  return new PrismaClient(prismaClientOptions(databaseUrl));
}

export type { PrismaClient };
