/**
 * `npm run openapi`: writes the OpenAPI document built from the code
 * (lambdas/api/openapi/document.ts) to lambdas/api/openapi.json, the file
 * GET /openapi.json serves. Commit the result; a test fails when it is stale.
 */
import '../lambdas/platform/polyfills';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderOpenApiDocument } from '../lambdas/api/openapi/document';

const OPENAPI_PATH = fileURLToPath(new URL('../lambdas/api/openapi.json', import.meta.url));

writeFileSync(OPENAPI_PATH, renderOpenApiDocument());
console.log(`wrote ${OPENAPI_PATH}`);
