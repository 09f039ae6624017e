/**
 * `npm test`: everything a change must pass, on a fresh clone, in one command. Sets up the
 * infrastructure and databases, checks generated contracts, lints the OpenAPI document
 * (Spectral and Redocly: no error, no warning) and checks the typed client generated from it,
 * lints the code (incl. Nx module boundaries), type-checks, then runs unit and integration
 * tests in parallel and the end-to-end suite in band (it restarts services). Ends with one
 * "N passed, N failed" line.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setup } from './setup';
import { repoRoot } from './system/services';

const bin = (name: string) => path.join(repoRoot, 'node_modules/.bin', name);

function step(title: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit', env: { ...process.env, NX_DAEMON: 'false' } });
  if (result.status !== 0) console.error(`✖ ${title} failed`);
  return result.status === 0;
}

interface JestSummary {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
}

function jest(title: string, args: string[], resultsFile: string): JestSummary | undefined {
  const ok = step(title, bin('jest'), [...args, '--json', `--outputFile=${resultsFile}`]);
  try {
    const summary = JSON.parse(readFileSync(resultsFile, 'utf8')) as JestSummary;
    return ok || summary.numFailedTests > 0 ? summary : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const resultsDir = path.join(repoRoot, '.data/test-results');
  mkdirSync(resultsDir, { recursive: true });
  console.log('▶ setting up infrastructure and databases');
  await setup((line) => console.log(`  ${line}`));

  const checks = [
    step('lock file installs on a fresh clone', bin('tsx'), ['tools/check-lockfile.ts']),
    step('generated contracts are up to date', bin('tsx'), ['tools/codegen/proto.ts', '--check']),
    step('OpenAPI document lints clean (Spectral, Redocly)', bin('tsx'), ['tools/openapi/lint.ts']),
    step('typed API client matches the OpenAPI document', bin('tsx'), ['tools/codegen/openapi-client.ts', '--check']),
    step('lint (incl. Nx module boundaries)', 'npm', ['run', '--silent', 'lint']),
    step('type-check', bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']),
  ];
  const suites = [
    jest('unit and integration tests', ['--selectProjects', 'unit', 'integration'], path.join(resultsDir, 'unit-integration.json')),
    jest('end-to-end tests', ['--selectProjects', 'e2e', '--runInBand'], path.join(resultsDir, 'e2e.json')),
  ];

  const passed = suites.reduce((sum, suite) => sum + (suite?.numPassedTests ?? 0), 0);
  const failed = suites.reduce((sum, suite) => sum + (suite?.numFailedTests ?? 0), 0);
  const crashed = suites.some((suite) => suite === undefined);
  const checksFailed = checks.filter((ok) => !ok).length;
  console.log(`\n${passed} passed, ${failed} failed`);
  if (crashed) console.error('A test run ended without results (see its output above).');
  if (checksFailed > 0) console.error(`${checksFailed} check(s) failed (see above).`);
  return failed === 0 && !crashed && checksFailed === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
