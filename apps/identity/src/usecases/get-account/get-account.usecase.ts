import type { Tenant } from '@ticketing/auth';
import { ApiError } from '@ticketing/errors';
import type { PrismaClient } from '../../db';
import type { Account } from '../../domain/account';
import { AccountRepository } from '../../repositories/account.repository';

export class GetAccountUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  async execute(tenant: Tenant): Promise<Account> {
    const account = await new AccountRepository(this.prisma).findById(tenant.accountId);
    if (!account) throw ApiError.resourceMissing('account', tenant.accountId);
    return account;
  }
}
