import { tenantKey } from '@ticketing/auth';
import type { catalogV1 } from '@ticketing/contracts';
import { ApiError } from '@ticketing/errors';
import type { AsyncServiceImplementation, CallContext } from '@ticketing/grpc';
import { newId } from '@ticketing/ids';

interface Gate {
  enter: () => void;
  released: Promise<void>;
}

/** Catalog's events in memory, with switches to make a call fail or wait for the test. */
export class CatalogDouble {
  private readonly events = new Map<string, { tenant: string; event: catalogV1.Event }>();
  private gate: Gate | undefined;
  createCalls = 0;
  failNextCreate = false;
  /** The next CreateEvent refuses with this error, as the real service refuses a request. */
  refuseNextCreate: ApiError | undefined;
  lastPage: catalogV1.ListEventsRequest['page'];
  /** Event ids whose lookup throws, as a bug in the service would. */
  static readonly EXPLODING_ID = 'evt_explode';

  /** The next CreateEvent waits until `release` is called; `entered` resolves once it is waiting. */
  holdNextCreate(): { entered: Promise<void>; release: () => void } {
    let release!: () => void;
    let enter!: () => void;
    const entered = new Promise<void>((resolve) => (enter = resolve));
    this.gate = { enter, released: new Promise<void>((resolve) => (release = resolve)) };
    return { entered, release };
  }

  handlers(): AsyncServiceImplementation<catalogV1.EventServiceServer> {
    const tenantOf = (context: CallContext) => tenantKey(context.tenant);
    const find = (id: string, context: CallContext) => {
      if (id === CatalogDouble.EXPLODING_ID) throw new Error('the double exploded');
      const stored = this.events.get(id);
      if (!stored || stored.tenant !== tenantOf(context)) throw ApiError.resourceMissing('event', id);
      return stored.event;
    };
    return {
      createEvent: async (request, context) => {
        this.createCalls += 1;
        const gate = this.gate;
        this.gate = undefined;
        if (gate) {
          gate.enter();
          await gate.released;
        }
        const refusal = this.refuseNextCreate;
        this.refuseNextCreate = undefined;
        if (refusal) throw refusal;
        if (this.failNextCreate) {
          this.failNextCreate = false;
          throw new Error('the double failed on purpose');
        }
        const now = new Date().toISOString();
        const event: catalogV1.Event = {
          ...request,
          id: newId('evt'),
          livemode: context.tenant.mode === 'live',
          starts_at: new Date(request.starts_at).toISOString(),
          currency: request.currency || 'USD',
          status: 'draft',
          tiers: [],
          has_seatmap: false,
          created_at: now,
          updated_at: now,
        };
        this.events.set(event.id, { tenant: tenantOf(context), event });
        return event;
      },
      getEvent: async ({ id }, context) => find(id, context),
      listEvents: async ({ page }, context) => {
        this.lastPage = page;
        const mine = [...this.events.values()].filter((stored) => stored.tenant === tenantOf(context)).map((stored) => stored.event).reverse();
        const limit = page?.limit ?? 20;
        return { data: mine.slice(0, limit), has_more: mine.length > limit };
      },
      listSimilarEvents: async () => ({ data: [], has_more: false }),
      updateEvent: async (request, context) => {
        const event = find(request.id, context);
        if (request.name !== undefined) event.name = request.name;
        if (request.starts_at !== undefined) event.starts_at = new Date(request.starts_at).toISOString();
        event.updated_at = new Date().toISOString();
        return event;
      },
    };
  }
}
