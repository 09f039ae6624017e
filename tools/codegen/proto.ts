/**
 * Generates the gRPC contracts (proto/ → libs/contracts/src/generated) with buf and ts-proto.
 * With --check it generates into a scratch directory and fails if the checked-in code differs,
 * so stale contracts are caught by `npm test`; `npm start` uses ensureContractsGenerated.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '../..');
const generatedDir = 'libs/contracts/src/generated';

function runBuf(args: string[]): void {
  execFileSync(path.join(repoRoot, 'node_modules/.bin/buf'), args, { cwd: repoRoot, stdio: 'inherit' });
}

function generate(outputRoot?: string): void {
  runBuf(['lint', 'proto']);
  const output = outputRoot ? ['--output', outputRoot] : [];
  runBuf(['generate', 'proto', '--template', 'proto/buf.gen.yaml', ...output]);
}

function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? listFiles(full, base) : [path.relative(base, full)];
  });
}

function staleFiles(expectedDir: string, actualDir: string): string[] {
  const expected = listFiles(expectedDir);
  const actual = new Set(listFiles(actualDir));
  const differing = expected.filter(
    (file) => !actual.has(file) || readFileSync(path.join(expectedDir, file), 'utf8') !== readFileSync(path.join(actualDir, file), 'utf8'),
  );
  const extra = [...actual].filter((file) => !expected.includes(file));
  return [...differing, ...extra];
}

/** Generates into a scratch directory and hands it, with the files that differ from the checked-in code, to `use`. */
function withFreshContracts<T>(use: (freshDir: string, stale: string[]) => T): T {
  const scratch = mkdtempSync(path.join(tmpdir(), 'contracts-'));
  try {
    generate(scratch);
    const freshDir = path.join(scratch, generatedDir);
    return use(freshDir, staleFiles(freshDir, path.join(repoRoot, generatedDir)));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function check(): void {
  withFreshContracts((_freshDir, stale) => {
    if (stale.length > 0) {
      console.error(`Generated contracts are stale: ${stale.join(', ')}.\nRun \`npm run codegen\` and commit the result.`);
      process.exit(1);
    }
    console.log('Generated contracts are up to date.');
  });
}

/**
 * Makes libs/contracts/src/generated match proto/ (`npm start`), rewriting it only when it
 * differs, so processes already running from it never see it half-written. Returns what changed.
 */
export function ensureContractsGenerated(): string[] {
  return withFreshContracts((freshDir, stale) => {
    if (stale.length > 0) {
      rmSync(path.join(repoRoot, generatedDir), { recursive: true, force: true });
      cpSync(freshDir, path.join(repoRoot, generatedDir), { recursive: true });
    }
    return stale;
  });
}

if (require.main === module) {
  if (process.argv.includes('--check')) {
    check();
  } else {
    rmSync(path.join(repoRoot, generatedDir), { recursive: true, force: true });
    generate();
  }
}
