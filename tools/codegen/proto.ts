/**
 * Generates the gRPC contracts (proto/ → libs/contracts/src/generated) with buf and ts-proto.
 * With --check it generates into a scratch directory and fails if the checked-in code differs,
 * so stale contracts are caught by `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
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

function check(): void {
  const scratch = mkdtempSync(path.join(tmpdir(), 'contracts-'));
  try {
    generate(scratch);
    const stale = staleFiles(path.join(scratch, generatedDir), path.join(repoRoot, generatedDir));
    if (stale.length > 0) {
      console.error(`Generated contracts are stale: ${stale.join(', ')}.\nRun \`npm run codegen\` and commit the result.`);
      process.exit(1);
    }
    console.log('Generated contracts are up to date.');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Regenerates libs/contracts/src/generated from proto/ (`npm run codegen`, `npm start`). */
export function generateContracts(): void {
  rmSync(path.join(repoRoot, generatedDir), { recursive: true, force: true });
  generate();
}

if (require.main === module) {
  if (process.argv.includes('--check')) check();
  else generateContracts();
}
