import { ensureInfrastructure } from '@ticketing/infra';
export default async function integrationGlobalSetup(): Promise<void> {
  await ensureInfrastructure();
}
