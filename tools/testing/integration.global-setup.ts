import { setup } from '../setup';

/** Infrastructure up, databases migrated, Prisma clients generated: what integration tests import. */
export default async function integrationGlobalSetup(): Promise<void> {
  await setup();
}
