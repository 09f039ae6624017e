/**
 * `npm ci` refuses a lock file that lacks an entry for any platform-specific optional dependency
 * (e.g. @swc/core's darwin binary), even one this machine would never install. npm leaves such
 * entries out when the registry it reads lacks that exact version, so a lock file written here
 * can break a fresh clone. This check fails early, naming the package to pin to another version.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

interface LockPackage {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

const lock = JSON.parse(readFileSync(path.resolve(__dirname, '../package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };

const missing = Object.entries(lock.packages).flatMap(([location, info]) =>
  Object.keys(info.optionalDependencies ?? {})
    .filter((dependency) => !lock.packages[`${location}/node_modules/${dependency}`] && !lock.packages[`node_modules/${dependency}`])
    .map((dependency) => `${location.replace(/^node_modules\//, '')}@${info.version} → ${dependency}`),
);

if (missing.length > 0) {
  console.error(`package-lock.json lacks optional platform packages, so \`npm ci\` would fail on a fresh clone:\n  ${missing.join('\n  ')}\nPin the parent package to a version whose platform packages the registry has, then reinstall.`);
  process.exit(1);
}
console.log('package-lock.json lists every optional platform package.');
