import path from 'node:path';

/** Resolved from this file, so the scripts behave the same from any working directory. */
export const repoRoot = path.resolve(__dirname, '../..');

const dataDir = path.join(repoRoot, '.data');
const kafkaDataRoot = path.join(dataDir, 'kafka');
const kafkaInfraDir = path.join(repoRoot, 'infra', 'kafka');

export const paths = {
  locksDir: path.join(dataDir, 'locks'),
  kafka: {
    pom: path.join(kafkaInfraDir, 'pom.xml'),
    serverPropertiesTemplate: path.join(kafkaInfraDir, 'server.properties'),
    log4jConfig: path.join(kafkaInfraDir, 'log4j.properties'),
    jarsDir: path.join(kafkaInfraDir, 'target', 'dependency'),
    jarsCompleteMarker: path.join(kafkaInfraDir, 'target', 'dependency.complete'),
    root: kafkaDataRoot,
    logDir: path.join(kafkaDataRoot, 'data'),
    metaProperties: path.join(kafkaDataRoot, 'data', 'meta.properties'),
    serverProperties: path.join(kafkaDataRoot, 'server.properties'),
    clusterId: path.join(kafkaDataRoot, 'cluster-id'),
    pidFile: path.join(kafkaDataRoot, 'broker.pid'),
    logFile: path.join(kafkaDataRoot, 'broker.log'),
  },
} as const;

/** For messages: paths relative to the repository are shorter and still unambiguous. */
export function displayPath(absolutePath: string): string {
  return path.relative(repoRoot, absolutePath);
}
