import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';

const repoRoot = path.resolve(__dirname, '../..');
const bin = (name: string) => path.join(repoRoot, 'node_modules/.bin', name);

/** Lints `code` as if it were the file at `filePath`, through the project's own ESLint config. */
function boundaryErrors(filePath: string, code: string): string[] {
  const result = spawnSync(bin('eslint'), ['--stdin', '--stdin-filename', filePath, '--format', 'json'], { cwd: repoRoot, input: code, encoding: 'utf8' });
  const [report] = JSON.parse(result.stdout) as Array<{ messages: Array<{ ruleId: string | null; message: string }> }>;
  return report!.messages.filter((message) => message.ruleId === '@nx/enforce-module-boundaries').map((message) => message.message);
}

/** The lint rule `npm test` runs must really refuse imports across service boundaries. */
describe('Nx module boundaries', () => {
  beforeAll(() => {
    // The rule reads Nx's cached project graph; computing it is what `npm run lint` does first.
    execFileSync(bin('nx'), ['show', 'projects'], { cwd: repoRoot, env: { ...process.env, NX_DAEMON: 'false' }, stdio: 'ignore' });
  });

  it('refuses an app importing another app, by package name or by path', () => {
    expect(boundaryErrors('apps/catalog/src/probe.ts', "import { createGatewayApp } from '@ticketing/gateway/src/app';\nexport { createGatewayApp };\n")).not.toEqual([]);
    expect(boundaryErrors('apps/catalog/src/probe.ts', "import { createGatewayApp } from '../../gateway/src/app';\nexport { createGatewayApp };\n")).not.toEqual([]);
  });

  it('refuses a lib importing an app', () => {
    expect(boundaryErrors('libs/grpc/src/probe.ts', "import { loadCatalogConfig } from '../../../apps/catalog/src/config';\nexport { loadCatalogConfig };\n")).not.toEqual([]);
  });

  it('allows an app to import shared libs', () => {
    expect(boundaryErrors('apps/catalog/src/probe.ts', "import { ApiError } from '@ticketing/errors';\nexport { ApiError };\n")).toEqual([]);
  });
});
