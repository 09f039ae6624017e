/** `nx run <app>:build`: bundles one app into apps/<app>/dist/main.js (see system/bundles.ts). */
import { bundleApp } from './system/bundles';
import { ALL_SERVICES, type ServiceName } from './system/services';

const app = process.argv[2];
if (!ALL_SERVICES.includes(app as ServiceName)) {
  console.error(`usage: tsx tools/build-app.ts <${ALL_SERVICES.join('|')}>`);
  process.exit(2);
}
bundleApp(app as ServiceName).then(
  () => console.log(`built apps/${app}/dist/main.js`),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
