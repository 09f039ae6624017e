import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { isLocalHost } from './endpoints';
import { withExclusiveLock } from './lock';
import { displayPath, paths, repoRoot } from './paths';
import { commandFailed, runCommand } from './processes';
import { sleep, waitUntil } from './wait';

/** The address infra/kafka/server.properties listens on. */
const MANAGED_BROKER_PORT = '9092';
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 30_000;
/** Covers another process fetching jars and starting the broker while we wait for the lock. */
const LOCK_TIMEOUT_MS = 300_000;
const JAVA_HINT = 'Kafka needs a Java 11+ runtime (apt-get install openjdk-17-jre-headless).';
const MAVEN_HINT = 'the Kafka jars are fetched with Maven (apt-get install maven).';

/**
 * Starts the local broker unless `brokers` already answer.
 * Returns the pid of the broker this call started, or undefined if it was already running.
 */
export async function ensureKafka(brokers: string[], log: (line: string) => void): Promise<number | undefined> {
  if (await isKafkaReachable(brokers)) {
    log('kafka: already running');
    return undefined;
  }
  assertManagedBroker(brokers);
  return withExclusiveLock('kafka', LOCK_TIMEOUT_MS, async () => {
    const pid = await startOrJoinBroker(brokers, log);
    log(pid === undefined ? 'kafka: already running' : `kafka: started (pid ${pid})`);
    return pid;
  });
}

/** Stops the broker recorded in the pid file. Returns false if there was none running. */
export async function stopRecordedBroker(): Promise<boolean> {
  const pid = readRunningBrokerPid();
  if (pid === undefined) {
    await rm(paths.kafka.pidFile, { force: true });
    return false;
  }
  await stopBroker(pid);
  return true;
}

/** SIGTERM lets the broker flush and close its logs cleanly; SIGKILL only if it hangs. */
export async function stopBroker(pid: number): Promise<void> {
  signal(pid, 'SIGTERM');
  if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
    signal(pid, 'SIGKILL');
    if (!(await waitForExit(pid, 5_000))) throw new Error(`The Kafka broker (pid ${pid}) did not exit even after SIGKILL.`);
  }
  await rm(paths.kafka.pidFile, { force: true });
}

async function startOrJoinBroker(brokers: string[], log: (line: string) => void): Promise<number | undefined> {
  if (await isKafkaReachable(brokers)) return undefined;
  // A broker started by a process that exited before it was ready: wait for it rather than start a second one.
  const booting = readRunningBrokerPid();
  if (booting !== undefined) {
    await waitForBroker(brokers, booting);
    return undefined;
  }
  await assertJavaInstalled();
  await ensureJars(log);
  await writeServerProperties();
  await ensureStorageFormatted();
  const pid = startBroker();
  try {
    await waitForBroker(brokers, pid);
  } catch (error) {
    await stopBroker(pid);
    throw error;
  }
  return pid;
}

function assertManagedBroker(brokers: string[]): void {
  const isManaged = (broker: string): boolean =>
    broker.endsWith(`:${MANAGED_BROKER_PORT}`) && isLocalHost(broker.slice(0, broker.lastIndexOf(':')));
  if (brokers.some(isManaged)) return;
  throw new Error(
    `Kafka is not reachable at ${brokers.join(',')}, and these scripts can only start a local broker on ` +
      `127.0.0.1:${MANAGED_BROKER_PORT}. Start that broker yourself, or unset KAFKA_BROKERS to use the local one.`,
  );
}

async function isKafkaReachable(brokers: string[]): Promise<boolean> {
  const admin = new Kafka({
    clientId: 'ensure-infrastructure',
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 3_000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

async function assertJavaInstalled(): Promise<void> {
  const result = await runCommand('java', ['-version'], JAVA_HINT);
  if (result.exitCode !== 0) throw commandFailed('java', ['-version'], result);
}

/** Re-fetches when the pom changed (e.g. a version bump) or a previous fetch was interrupted. */
async function ensureJars(log: (line: string) => void): Promise<void> {
  const pomHash = createHash('sha256').update(await readFile(paths.kafka.pom)).digest('hex');
  const fetchedHash = await readFile(paths.kafka.jarsCompleteMarker, 'utf8').catch(() => undefined);
  if (fetchedHash === pomHash && existsSync(paths.kafka.jarsDir)) return;

  log('kafka: fetching broker jars with Maven (first run only)');
  // Stale jars from another version would end up on the same classpath.
  await rm(paths.kafka.jarsDir, { recursive: true, force: true });
  const args = ['-q', '-B', '-f', paths.kafka.pom, 'dependency:copy-dependencies'];
  const result = await runCommand('mvn', args, MAVEN_HINT);
  if (result.exitCode !== 0) throw commandFailed('mvn', args, result);
  await writeFile(paths.kafka.jarsCompleteMarker, pomHash);
}

async function writeServerProperties(): Promise<void> {
  const template = await readFile(paths.kafka.serverPropertiesTemplate, 'utf8');
  await mkdir(paths.kafka.logDir, { recursive: true });
  await writeFile(paths.kafka.serverProperties, `${template}\nlog.dirs=${paths.kafka.logDir}\n`);
}

async function ensureStorageFormatted(): Promise<void> {
  if (existsSync(paths.kafka.metaProperties)) return;
  const args = [
    ...jvmArgs(),
    'kafka.tools.StorageTool',
    'format',
    '--cluster-id',
    await readOrCreateClusterId(),
    '--config',
    paths.kafka.serverProperties,
  ];
  const result = await runCommand('java', args, JAVA_HINT);
  if (result.exitCode !== 0) throw commandFailed('java', args, result);
}

/** Kept across re-formats so the cluster keeps one identity for the lifetime of .data/. */
async function readOrCreateClusterId(): Promise<string> {
  const existing = await readFile(paths.kafka.clusterId, 'utf8').catch(() => undefined);
  if (existing?.trim()) return existing.trim();
  const clusterId = newClusterId();
  await writeFile(paths.kafka.clusterId, `${clusterId}\n`);
  return clusterId;
}

/** Same shape as Kafka's Uuid.randomUuid(): 16 random bytes, base64url, never starting with '-'. */
function newClusterId(): string {
  const id = randomBytes(16).toString('base64url');
  return id.startsWith('-') ? newClusterId() : id;
}

function jvmArgs(): string[] {
  return [
    `-Dlog4j.configuration=${pathToFileURL(paths.kafka.log4jConfig).href}`,
    `-Dkafka.logs.dir=${paths.kafka.root}`,
    '-cp',
    path.join(paths.kafka.jarsDir, '*'),
  ];
}

/** Detached in its own session, so the broker outlives `npm test` / `npm start` and survives their Ctrl-C. */
function startBroker(): number {
  const logFd = openSync(paths.kafka.logFile, 'a');
  try {
    const child = spawn('java', ['-Xms256m', '-Xmx512m', ...jvmArgs(), 'kafka.Kafka', paths.kafka.serverProperties], {
      cwd: repoRoot,
      detached: true,
      stdio: ['ignore', logFd, logFd],
    });
    // A spawn failure also leaves `pid` undefined, which is reported below.
    child.on('error', () => undefined);
    child.unref();
    if (child.pid === undefined) throw new Error(`Could not start the Kafka broker (java). ${JAVA_HINT}`);
    writeFileSync(paths.kafka.pidFile, `${child.pid}\n`);
    return child.pid;
  } finally {
    closeSync(logFd);
  }
}

async function waitForBroker(brokers: string[], pid: number): Promise<void> {
  const logFile = displayPath(paths.kafka.logFile);
  await waitUntil(
    async () => {
      if (!isBrokerProcess(pid)) throw new Error(`The Kafka broker (pid ${pid}) exited during startup; see ${logFile}.`);
      return isKafkaReachable(brokers);
    },
    {
      timeoutMs: READY_TIMEOUT_MS,
      intervalMs: 1_000,
      timeoutMessage: `The Kafka broker (pid ${pid}) was not ready within ${READY_TIMEOUT_MS / 1000} s; see ${logFile}.`,
    },
  );
}

function readRunningBrokerPid(): number | undefined {
  if (!existsSync(paths.kafka.pidFile)) return undefined;
  const pid = Number.parseInt(readFileSync(paths.kafka.pidFile, 'utf8'), 10);
  return Number.isInteger(pid) && isBrokerProcess(pid) ? pid : undefined;
}

/** Checks the command line, not just the pid, so a recycled pid is never mistaken for (or killed as) our broker. */
function isBrokerProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('kafka.Kafka');
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  if (!isBrokerProcess(pid)) return;
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isBrokerProcess(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(250);
  }
  return true;
}
