/**
 * Each app as one bundled file, apps/<app>/dist/main.js: what `npm start`, the end-to-end suite,
 * the benchmark and containers run, so no TypeScript loader sits in a running service. Workspace
 * libs (@ticketing/*) are TypeScript sources and are bundled in; third-party packages stay
 * external and are loaded from node_modules (`npm ci --omit=dev` in an image).
 */
import { build, type Plugin } from 'esbuild';
import path from 'node:path';
import { ALL_SERVICES, serviceDir, type ServiceName } from './services';

const externalThirdParty: Plugin = {
  name: 'external-third-party',
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@ticketing/') ? undefined : { path: args.path, external: true }));
  },
};

export function bundlePath(app: ServiceName): string {
  return path.join(serviceDir(app), 'dist/main.js');
}

export async function bundleApp(app: ServiceName): Promise<void> {
  await build({
    entryPoints: [path.join(serviceDir(app), 'src/main.ts')],
    outfile: bundlePath(app),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    plugins: [externalThirdParty],
    logLevel: 'warning',
  });
}

/** Bundles every app from the current sources (about a second in all). */
export async function bundleAllApps(): Promise<void> {
  await Promise.all(ALL_SERVICES.map(bundleApp));
}
