/**
 * Generates the types of the typed API client (openapi-typescript, used with openapi-fetch by
 * the end-to-end suite) from the OpenAPI document the gateway serves, built in-process. With
 * --check it fails when the checked-in file differs, so a document change without regenerated
 * client types fails `npm test`, and regenerated types that no longer fit the tests fail the
 * type-check.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { servedOpenApiDocument } from '../openapi/served-document';

const CLIENT_TYPES_FILE = path.resolve(__dirname, '../../e2e/support/generated/openapi.d.ts');

const REGENERATE = 'npx tsx tools/codegen/openapi-client.ts';

/** The TypeScript declarations of a document's paths, operations and schemas. */
async function clientTypes(document: object): Promise<string> {
  const ast = await openapiTS(document as OpenAPI3, { silent: true });
  return `${COMMENT_HEADER.replace(' */', ` * Regenerate with \`${REGENERATE}\`.\n */`)}${astToString(ast)}`;
}

async function main(): Promise<number> {
  // Through JSON, as clients download it.
  const fresh = await clientTypes(JSON.parse(JSON.stringify(servedOpenApiDocument())));
  if (!process.argv.includes('--check')) {
    writeFileSync(CLIENT_TYPES_FILE, fresh);
    console.log(`wrote ${path.relative(process.cwd(), CLIENT_TYPES_FILE)}`);
    return 0;
  }
  const current = readFileSync(CLIENT_TYPES_FILE, 'utf8');
  if (current !== fresh) {
    console.error(`${path.relative(process.cwd(), CLIENT_TYPES_FILE)} is stale: the OpenAPI document changed.\nRun \`${REGENERATE}\` and commit the result.`);
    return 1;
  }
  console.log('The typed API client matches the OpenAPI document.');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
