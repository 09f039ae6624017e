import type { catalogV1 } from '@ticketing/contracts';
import type { AsyncServiceImplementation } from '@ticketing/grpc';
import type { PrismaClient } from '../db';
import { CreateEventUseCase } from '../usecases/create-event/create-event.usecase';
import { GetEventUseCase } from '../usecases/get-event/get-event.usecase';
import { ListEventsUseCase } from '../usecases/list-events/list-events.usecase';
import { ListSimilarEventsUseCase } from '../usecases/list-similar-events/list-similar-events.usecase';
import { UpdateEventUseCase } from '../usecases/update-event/update-event.usecase';
import { toEventMessage } from './messages';

/** Transport only: decode, call one use case with the token's tenant, encode. */
export function eventGrpcHandlers(prisma: PrismaClient): AsyncServiceImplementation<catalogV1.EventServiceServer> {
  const createEvent = new CreateEventUseCase(prisma);
  const getEvent = new GetEventUseCase(prisma);
  const listEvents = new ListEventsUseCase(prisma);
  const updateEvent = new UpdateEventUseCase(prisma);
  const listSimilarEvents = new ListSimilarEventsUseCase(prisma);
  return {
    createEvent: async (request, context) => toEventMessage(await createEvent.execute(context.tenant, request)),
    getEvent: async (request, context) => toEventMessage(await getEvent.execute(context.tenant, request.id)),
    listEvents: async (request, context) => {
      const page = await listEvents.execute(context.tenant, request);
      return { data: page.data.map(toEventMessage), has_more: page.has_more };
    },
    updateEvent: async (request, context) => toEventMessage(await updateEvent.execute(context.tenant, request)),
    listSimilarEvents: async (request, context) => {
      const page = await listSimilarEvents.execute(context.tenant, request.id, request.page);
      return { data: page.data.map((item) => ({ event: toEventMessage(item.event), score: item.score, reasons: item.reasons })), has_more: page.has_more };
    },
  };
}
