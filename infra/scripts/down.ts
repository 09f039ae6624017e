/** `npm run infra:down`: stops the Kafka broker started by these scripts; PostgreSQL and Redis are shared system services and stay up. */
import { stopRecordedBroker } from './kafka';

stopRecordedBroker()
  .then((stopped) => console.log(stopped ? 'kafka: stopped' : 'kafka: not running (no broker started by these scripts)'))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
