import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { ConnectAccount } from '../../domain/connect-account';
import { ConnectAccountRepository } from '../../repositories/connect-account.repository';

export class GetConnectAccountUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant): Promise<ConnectAccount> {
    const account = await new ConnectAccountRepository(this.prisma).find(tenant);
    if (!account) throw new ApiError('connect_account_missing', 'This account has no connect account yet: create it with POST /v1/connect/account, giving its business and bank account.');
    return account;
  }
}
