import type { Tenant } from '@ticketing/auth';
import { paginate, type Page, type PageRequest } from '@ticketing/pagination';
import type { PrismaClient } from '../../db';
import type { CatalogEvent } from '../../domain/event';
import { eventStatus } from '../../domain/event-status';
import { dateTime } from '@ticketing/fields';
import { EventRepository, type EventFilters } from '../../repositories/event.repository';

/** The filters as callers send them: an empty string means "any". */
export interface ListEventsQuery {
  page: PageRequest | undefined;
  status: string;
  organization_id: string;
  starts_after: string;
  starts_before: string;
  q: string;
}

function validFilters(query: ListEventsQuery): EventFilters {
  return {
    ...(query.status === '' ? {} : { status: eventStatus(query.status) }),
    ...(query.organization_id === '' ? {} : { organization_id: query.organization_id }),
    ...(query.starts_after === '' ? {} : { starts_after: dateTime(query.starts_after, 'starts_after') }),
    ...(query.starts_before === '' ? {} : { starts_before: dateTime(query.starts_before, 'starts_before') }),
    ...(query.q.trim() === '' ? {} : { q: query.q.trim() }),
  };
}

export class ListEventsUseCase {
  constructor(private readonly prisma: PrismaClient) {}

  execute(tenant: Tenant, query: ListEventsQuery): Promise<Page<CatalogEvent>> {
    return paginate(query.page, new EventRepository(this.prisma).pages(tenant, validFilters(query)));
  }
}
