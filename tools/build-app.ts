/**
 * `nx run <app>:build`: bundles one app into apps/<app>/dist/main.js for containers. Workspace
 * libs (@ticketing/*) are TypeScript sources and are bundled in; third-party packages stay
 * external and are installed with `npm ci --omit=dev` in the image.
 */
import { build, type Plugin } from 'esbuild';
import path from 'node:path';
import { ALL_SERVICES, serviceDir, type ServiceName } from './system/services';

const externalThirdParty: Plugin = {
  name: 'external-third-party',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@ticketing/') ? undefined : { path: args.path, external: true }));
  },
};

async function buildApp(app: ServiceName): Promise<void> {
  await build({
    entryPoints: [path.join(serviceDir(app), 'src/main.ts')],
    outfile: path.join(serviceDir(app), 'dist/main.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    plugins: [externalThirdParty],
    logLevel: 'warning',
  });
  console.log(`built apps/${app}/dist/main.js`);
}

const app = process.argv[2];
if (!ALL_SERVICES.includes(app as ServiceName)) {
  console.error(`usage: tsx tools/build-app.ts <${ALL_SERVICES.join('|')}>`);
  process.exit(2);
}
buildApp(app as ServiceName).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
