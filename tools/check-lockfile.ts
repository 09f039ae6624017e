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

/** Where Node would resolve `dependency` from `location`: the nearest node_modules up the tree. */
function resolveFrom(location: string, dependency: string): LockPackage | undefined {
  for (let base = location; ; base = base.slice(0, Math.max(0, base.lastIndexOf('/node_modules/')))) {
    const found = lock.packages[`${base ? `${base}/` : ''}node_modules/${dependency}`];
    if (found || !base) return found;
  }
}

/** Platform packages are pinned to their parent's exact version; a different one is as bad as none. */
const missing = Object.entries(lock.packages).flatMap(([location, info]) =>
  Object.entries(info.optionalDependencies ?? {})
    .filter(([dependency, wanted]) => {
      const found = resolveFrom(location, dependency);
      return !found || (/^\d/.test(wanted) && found.version !== wanted);
    })
    .map(([dependency, wanted]) => `${location.replace(/^node_modules\//, '')}@${info.version} → ${dependency}@${wanted}`),
);

if (missing.length > 0) {
  console.error(`package-lock.json lacks optional platform packages, so \`npm ci\` would fail on a fresh clone:\n  ${missing.join('\n  ')}\nPin the parent package to a version whose platform packages the registry has, then reinstall.`);
  process.exit(1);
}
console.log('package-lock.json lists every optional platform package.');
