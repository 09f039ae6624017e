import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { Payout } from '../../domain/payout';
import { PayoutRepository } from '../../repositories/payout.repository';

export class ListPayoutsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, page: PageRequest | undefined): Promise<Page<Payout>> {
    return paginate(page, new PayoutRepository(this.prisma).pages(tenant));
  }
}
