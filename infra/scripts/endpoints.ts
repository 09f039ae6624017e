export interface Endpoints {
  postgresUrl: string;
  redisUrl: string;
  kafkaBrokers: string[];
}

export function readEndpoints(env: NodeJS.ProcessEnv = process.env): Endpoints {
  return {
    postgresUrl: env.POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    kafkaBrokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092')
      .split(',')
      .map((broker) => broker.trim())
      .filter((broker) => broker.length > 0),
  };
}

/** An empty host is a Unix socket, which is local too. */
export function isLocalHost(host: string): boolean {
  return ['', 'localhost', '127.0.0.1', '::1', '[::1]'].includes(host);
}

/** For error messages: never print a password from an environment variable. */
export function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/**
 * We can only start services on this machine; for a remote one, waiting would just
 * end in a confusing timeout, so say what to do instead.
 */
export function assertStartableHere(service: string, envVar: string, address: string, host: string): void {
  if (isLocalHost(host)) return;
  throw new Error(
    `${service} is not reachable at ${address}, and that is not this machine, so it cannot be started here. ` +
      `Start it there, or unset ${envVar} to use the local one.`,
  );
}
