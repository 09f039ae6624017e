import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { DEFAULT_POSTGRES_URL } from '@ticketing/config';
import { databaseUrl, ensureDatabase } from '@ticketing/db';
import { benchDir } from './bench-system';

/**
 * PostgreSQL's own rate for the operation every sale rests on, the baseline the benches'
 * ratios are to: one tier row, `UPDATE … SET held = held + 1 WHERE held + sold + 1 <= capacity`,
 * run by pgbench.
 */

/** Each of pgbench's runs; a bench runs it once before its measured load and once after. */
const PGBENCH_SECONDS = 5;
/** PostgreSQL's connection limit (100) leaves room for the services' pools beside this many. */
const PGBENCH_MAX_CLIENTS = 50;

/** pgbench's clients for a load of `concurrency`: as many, up to the limit. */
export const pgbenchClients = (concurrency: number) => Math.min(concurrency, PGBENCH_MAX_CLIENTS);

/** A database of the benches' own, with one tier row of unbounded capacity for pgbench and the sale floor. */
export async function hotRowDatabase(): Promise<string> {
  const adminUrl = process.env.POSTGRES_URL ?? DEFAULT_POSTGRES_URL;
  await ensureDatabase(adminUrl, 'ticketing_bench');
  const url = databaseUrl(adminUrl, 'ticketing_bench');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('DROP TABLE IF EXISTS bench_tiers');
    await client.query('CREATE TABLE bench_tiers (id int PRIMARY KEY, capacity int NOT NULL, held int NOT NULL, sold int NOT NULL)');
    await client.query('INSERT INTO bench_tiers VALUES (1, 2000000000, 0, 0)');
  } finally {
    await client.end();
  }
  return url;
}

/**
 * pgbench's transactions per second for the hot-row conditional update. Run without blocking the
 * event loop: a bench's kept-alive connections to the gateway must see the gateway close them
 * while idle, or the first requests after pgbench go out on sockets already closed.
 */
export async function pgbenchTps(url: string, clients: number): Promise<number> {
  const script = path.join(benchDir, 'hot-row-pgbench.sql');
  mkdirSync(benchDir, { recursive: true });
  writeFileSync(script, 'UPDATE bench_tiers SET held = held + 1 WHERE id = 1 AND held + sold + 1 <= capacity;\n');
  const { stdout: output } = await promisify(execFile)('pgbench', ['-n', '-c', String(clients), '-j', '2', '-T', String(PGBENCH_SECONDS), '-f', script, url], { encoding: 'utf8' });
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1];
  if (!tps) throw new Error(`pgbench printed no tps:\n${output}`);
  return Number(tps);
}
