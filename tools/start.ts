/**
 * `npm start`: sets everything up (gRPC contracts generated from proto/, infrastructure,
 * databases, migrations, Prisma clients), then runs all seven services as separate processes
 * with their logs interleaved, starting again any that exits on its own (system/supervisor.ts).
 * Ctrl-C stops them gracefully, then the broker if this run started it.
 */
import { ensureContractsGenerated } from './codegen/proto';
import { setup } from './setup';
import { assertPortsFree, launchAll, launchService, stopServices, waitForSystem } from './system/launch';
import { servicePorts } from './system/services';
import { Supervisor } from './system/supervisor';

/** PORT_OFFSET shifts every service's ports, so a second copy can run beside the first. */
function portOffset(): number {
  const offset = Number(process.env.PORT_OFFSET ?? 0);
  if (!Number.isInteger(offset) || offset < 0 || offset > 10_000) throw new Error(`PORT_OFFSET must be a whole number from 0 to 10000, not '${process.env.PORT_OFFSET}'.`);
  return offset;
}

async function main(): Promise<void> {
  const offset = portOffset();
  await assertPortsFree(offset);
  const regenerated = ensureContractsGenerated();
  console.log(`setup     | gRPC contracts ${regenerated.length > 0 ? `regenerated from proto/ (${regenerated.join(', ')})` : 'match proto/'}`);
  const infrastructure = await setup((line) => console.log(`setup     | ${line}`));
  const running = await launchAll({ portOffset: offset });
  let stopRunningServices = () => stopServices(running);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping services…');
    await stopRunningServices();
    await infrastructure.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  try {
    await waitForSystem(running, offset);
  } catch (error) {
    if (stopping) return; // Ctrl-C while starting: stop() is already taking everything down
    console.error(`${(error as Error).message}. Its log lines above say why (a port already in use means another copy is running).`);
    stopping = true;
    await stopServices(running);
    await infrastructure.stop();
    process.exit(1);
  }
  if (stopping) return;
  const supervisor = new Supervisor(running, (name) => launchService(name, { portOffset: offset }), (line) => console.error(line));
  stopRunningServices = () => supervisor.stop();
  const port = servicePorts(offset).gateway.PORT;
  console.log(`\nThe API is up: http://127.0.0.1:${port}/v1/health — docs at http://127.0.0.1:${port}/v1/docs (Ctrl-C stops everything)\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
