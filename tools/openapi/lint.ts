/**
 * Lints the OpenAPI document clients receive, built in-process from the route table, with
 * Spectral (`spectral:oas`, tools/openapi/spectral.yaml) and Redocly (`recommended`). Fails on
 * any error or warning from either: a warning today is a broken generated client tomorrow.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../system/services';
import { servedOpenApiDocument } from './served-document';

const bin = (name: string) => path.join(repoRoot, 'node_modules/.bin', name);
const here = (file: string) => path.join(repoRoot, 'tools/openapi', file);

function run(command: string, args: string[]): { status: number | null; stdout: string } {
  // Redocly would otherwise try to send telemetry and look for a newer version over the network.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  const result = spawnSync(command, args, { cwd: repoRoot, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return { status: result.status, stdout: result.stdout };
}

function spectral(documentFile: string): boolean {
  const result = run(bin('spectral'), ['lint', '--ruleset', here('spectral.yaml'), '--fail-severity', 'warn', '--display-only-failures', documentFile]);
  process.stdout.write(result.stdout);
  return result.status === 0;
}

interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

/** Redocly exits 0 on warnings, so its JSON report is read instead of its exit code. */
function redocly(documentFile: string): boolean {
  const { stdout } = run(bin('redocly'), ['lint', '--config', here('redocly.yaml'), '--format', 'json', documentFile]);
  const { totals, problems } = JSON.parse(stdout) as RedoclyReport;
  for (const problem of problems) console.log(`${problem.location[0]?.pointer ?? ''}  ${problem.severity}  ${problem.ruleId}  ${problem.message}`);
  console.log(`Redocly: ${totals.errors} error(s), ${totals.warnings} warning(s).`);
  return totals.errors === 0 && totals.warnings === 0;
}

function main(): number {
  const documentFile = path.join(repoRoot, '.data/openapi/openapi.json');
  mkdirSync(path.dirname(documentFile), { recursive: true });
  writeFileSync(documentFile, JSON.stringify(servedOpenApiDocument(), null, 2));
  console.log(`Linting ${path.relative(repoRoot, documentFile)} (GET /v1/openapi.json, built in-process).`);
  const results = [spectral(documentFile), redocly(documentFile)];
  return results.every(Boolean) ? 0 : 1;
}

process.exit(main());
