import { accountRoutes } from './account.routes';
import { checkoutRoutes } from './checkout.routes';
import { compsRoutes } from './comps.routes';
import { customersRoutes } from './customers.routes';
import { discountsRoutes } from './discounts.routes';
import { eventsRoutes } from './events.routes';
import { marketplaceRoutes } from './marketplace.routes';
import { organizationsRoutes } from './organizations.routes';
import { paymentsRoutes } from './payments.routes';
import { payoutsRoutes } from './payouts.routes';
import { publicRoutes } from './public.routes';
import { reportsRoutes } from './reports.routes';
import { scanningRoutes } from './scanning.routes';
import { seatHoldsRoutes } from './seat-holds.routes';
import { segmentsRoutes } from './segments.routes';
import { staffRoutes } from './staff.routes';
import { ticketsRoutes } from './tickets.routes';
import { tiersRoutes } from './tiers.routes';
import { waitingRoomRoutes } from './waiting-room.routes';
import { webhooksRoutes } from './webhooks.routes';
import type { Route } from './route';

/**
 * The public API, the single source for routing, key and scope checks, validation, the
 * OpenAPI document and the scope-matrix test. Order here is only the reading order of the
 * document: the router derives its own matching order (see route-order.ts).
 */
export const routeTable: readonly Route[] = [
  ...publicRoutes,
  ...accountRoutes,
  ...eventsRoutes,
  ...tiersRoutes,
  ...organizationsRoutes,
  ...discountsRoutes,
  ...ticketsRoutes,
  ...compsRoutes,
  ...seatHoldsRoutes,
  ...waitingRoomRoutes,
  ...customersRoutes,
  ...segmentsRoutes,
  ...paymentsRoutes,
  ...checkoutRoutes,
  ...marketplaceRoutes,
  ...reportsRoutes,
  ...scanningRoutes,
  ...staffRoutes,
  ...webhooksRoutes,
  ...payoutsRoutes,
];
