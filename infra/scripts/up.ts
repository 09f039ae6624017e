/** `npm run infra:up`: makes PostgreSQL, Redis and Kafka reachable and leaves them running. */
import { ensureInfrastructure } from './ensure-infrastructure';

ensureInfrastructure({ log: (line) => console.log(line) }).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
