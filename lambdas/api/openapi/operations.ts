/**
 * One OpenAPI operation per route of ROUTES (lambdas/api/routes.ts): what it
 * takes, what it answers, and which errors it can produce. The document
 * builder refuses a route without an entry here, so a new route cannot ship
 * undocumented.
 */
import { STEP_TYPES } from '../../domain/model';
import { OPTIMIZE_PARAMS } from '../../engine/optimize/params';

type Json = Record<string, unknown>;

export interface OperationSpec {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  /** Component schema id of the JSON body. */
  requestBody?: string;
  parameters?: Json[];
  /** Success responses: status → [description, component schema id(s) (several: oneOf), or null for any object]. */
  success: Record<number, [string, string | string[] | null]>;
  /** Error statuses this operation can answer, besides those every route can (see document.ts). */
  errors: number[];
}

const profileIdParameter = { name: 'id', in: 'path', required: true, description: "A preflight profile id: a built-in's, such as `default`, or one of the account's own.", schema: { type: 'string' } };

const SYNC_MODES = `
**Modes.** Async: 201 \`{ job }\` at once; follow the job with GET /jobs/{id} or the webhook.
Sync (\`"sync": true\`): the request waits up to 27 s; 200 \`{ job }\` when the job finished in time (with
\`summary\` and \`results\`), else 202 \`{ job, pending: true }\` — the job goes on. The webhook fires in
either mode.`;

const SYNC_BY_DEFAULT = `
**Modes.** Sync by default: waits up to 27 s; 200 \`{ job }\` when finished, else 202 \`{ job, pending: true }\`.
\`"async": true\` answers 201 \`{ job, pending: true }\` at once. The webhook fires in either mode.`;

/** The optimize options as a table: name, default, range or values, what it does (GET /profiles lists the same under `optimize`). */
function optimizeOptions(): string {
  const range = (p: (typeof OPTIMIZE_PARAMS)[number]): string =>
    p.values ? p.values.join(', ') : p.min !== undefined || p.max !== undefined ? `${p.min ?? ''}–${p.max ?? ''}` : '';
  const rows = OPTIMIZE_PARAMS.map((p) => `| \`${p.name}\` | ${p.type} | \`${JSON.stringify(p.default)}\` | ${range(p)} | ${p.description.replace(/\|/g, '\\|')} |`);
  return ['| option | type | default | range | what it does |', '|---|---|---|---|---|', ...rows].join('\n');
}

const LOCATOR = `Each source names its file with exactly one of \`url\` (https; optional \`headers\` sent with the
download), \`file\` (base64 content; for large files use POST /uploads) or \`fileRef\` (an upload of this account
whose file has arrived; else 400 \`source_not_uploaded\`).`;

const jobCreatingSuccess = (syncDefault: boolean): OperationSpec['success'] =>
  syncDefault
    ? {
        200: ['Sync (default): the job finished within the wait.', 'JobEnvelope'],
        201: ['Async (`"async": true`): the job was created and runs on.', 'PendingJobEnvelope'],
        202: ['Sync: the job did not finish within the wait; it goes on.', 'PendingJobEnvelope'],
      }
    : {
        200: ['Sync (`"sync": true`): the job finished within the wait.', 'JobEnvelope'],
        201: ['Async (default): the job was created and runs on.', 'JobEnvelope'],
        202: ['Sync: the job did not finish within the wait; it goes on.', 'PendingJobEnvelope'],
      };

const jobCreatingErrors = [400, 409, 413, 415, 503];

export const jobIdParameter: Json = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'A job id (`job_<ulid>`). Another account\'s job, or no such job: 404.',
  schema: { type: 'string', pattern: '^job_[0-9a-hjkmnp-tv-z]{26}$' },
};

const shareTokenParameter: Json = {
  name: 'Share-Token',
  in: 'header',
  required: true,
  description: 'The token of the share link: the part of its URL after `#`.',
  schema: { type: 'string', maxLength: 512 },
};

const query = (name: string, description: string, schema: Json): Json => ({ name, in: 'query', required: false, description, schema });

export const OPERATIONS: Record<string, OperationSpec> = {
  'GET /health': {
    operationId: 'getHealth',
    summary: 'Health check',
    description: 'Public. 200 once the service answers requests.',
    tags: ['Service'],
    success: { 200: ['The service is up.', 'Health'] },
    errors: [],
  },
  'GET /openapi.json': {
    operationId: 'getOpenApi',
    summary: 'This document',
    description: 'Public. The OpenAPI 3.1 document of this API.',
    tags: ['Service'],
    success: { 200: ['The OpenAPI document.', null] },
    errors: [],
  },
  'POST /jobs': {
    operationId: 'createJob',
    summary: 'Create a job',
    description: `A job of 1 to 50 sources, each with its own ordered steps (${STEP_TYPES.join(', ')}). ${LOCATOR}\n${SYNC_MODES}`,
    tags: ['Jobs'],
    requestBody: 'CreateJobRequest',
    success: jobCreatingSuccess(false),
    errors: jobCreatingErrors,
  },
  'POST /jobs/preflight': {
    operationId: 'createPreflightJob',
    summary: 'Preflight files',
    description: `Steps \`[preflight]\` for each source; without \`profileId\` the \`default\` profile applies. ${LOCATOR}\n${SYNC_MODES}`,
    tags: ['Jobs'],
    requestBody: 'PreflightJobRequest',
    success: jobCreatingSuccess(false),
    errors: jobCreatingErrors,
  },
  'POST /jobs/fix': {
    operationId: 'createFixJob',
    summary: 'Preflight and fix files',
    description: `Steps \`[preflight, autofix, repreflight?]\` for each source: autofix applies \`items\` (default: every fix the
profile recommends); \`"repreflight": true\` checks the fixed file again. ${LOCATOR}\n${SYNC_MODES}`,
    tags: ['Jobs'],
    requestBody: 'FixJobRequest',
    success: jobCreatingSuccess(false),
    errors: jobCreatingErrors,
  },
  'POST /jobs/validate': {
    operationId: 'createValidateJob',
    summary: 'Validate PDF/A or PDF/UA conformance',
    description: `Steps \`[validate]\` for each source with its required \`profile\` (a code or an array of codes). ${LOCATOR}
${SYNC_BY_DEFAULT}`,
    tags: ['Jobs'],
    requestBody: 'ValidateJobRequest',
    success: jobCreatingSuccess(true),
    errors: jobCreatingErrors,
  },
  'POST /jobs/previews': {
    operationId: 'createPreviewsJob',
    summary: 'Render page previews',
    description: `Steps \`[previews]\` for each source with its optional \`params\` (format, dpi or width/height, pages,
quality, background, thumbnail). ${LOCATOR}\n${SYNC_MODES}`,
    tags: ['Jobs'],
    requestBody: 'PreviewsJobRequest',
    success: jobCreatingSuccess(false),
    errors: jobCreatingErrors,
  },
  'POST /jobs/optimize': {
    operationId: 'createOptimizeJob',
    summary: 'Make files smaller',
    description: `Steps \`[optimize]\` for each source (PDF or raster image) with its optional \`params\` (\`{ pdf?, raster? }\`).
The outcome is \`fixed\` when the file got smaller: the optimized file (role \`optimized\`) is then the deliverable and
\`results.optimize[].output\` describes it; else \`unchanged\`, \`output\` is null and the original stays the
deliverable. ${LOCATOR}
${SYNC_BY_DEFAULT}

**Options** (GET /profiles lists the same under \`optimize\`):

${optimizeOptions()}`,
    tags: ['Jobs'],
    requestBody: 'OptimizeJobRequest',
    success: jobCreatingSuccess(true),
    errors: jobCreatingErrors,
  },
  'GET /jobs': {
    operationId: 'listJobs',
    summary: 'List jobs',
    description: 'The jobs of the caller\'s account, newest first, one page at a time. Unknown query parameters are ignored.',
    tags: ['Jobs'],
    parameters: [
      query('limit', 'Page size, 1 to 100 (default 20).', { type: 'integer', minimum: 1, maximum: 100, default: 20 }),
      query('nextKey', 'The `nextKey` of the previous page.', { type: 'string' }),
      query('preview', 'Lean entries: tasks without steps, no summary or results.', { type: 'boolean', default: false }),
      query('status', 'Only jobs with this status.', { type: 'string', enum: ['pending', 'running', 'done', 'skipped', 'error'] }),
      query('outcome', 'Only jobs with this outcome.', {
        type: 'string',
        enum: ['pass', 'warn', 'fail', 'fixed', 'unchanged', 'na', 'mixed'],
      }),
      query('channel', 'Only jobs of this channel.', { type: 'string', enum: ['api', 'store', 'admin'] }),
      query('orderId', 'Only jobs with this orderId.', { type: 'string', maxLength: 128 }),
      query('customerId', 'Only jobs with this customerId.', { type: 'string', maxLength: 128 }),
      query('createdAfter', 'Only jobs created at or after this time (ISO 8601).', { type: 'string', format: 'date-time' }),
      query('createdBefore', 'Only jobs created at or before this time (ISO 8601).', { type: 'string', format: 'date-time' }),
    ],
    success: { 200: ['One page of jobs.', 'JobList'] },
    errors: [400],
  },
  'GET /jobs/{id}': {
    operationId: 'getJob',
    summary: 'Get a job',
    description: `The job with presigned \`downloadUrl\`s (valid 1 hour, \`expiresIn: 3600\`); terminal jobs also carry
\`summary\` and \`results\`. With \`expand=runs\`: the runs view, without the \`job\` wrapper.`,
    tags: ['Jobs'],
    parameters: [jobIdParameter, query('expand', '`runs`: a flat view of the job\'s files per task.', { type: 'string', enum: ['runs'] })],
    success: { 200: ['The job (`{ job }`), or with `expand=runs` the runs view.', ['JobEnvelope', 'JobRuns']] },
    errors: [400, 404],
  },
  'DELETE /jobs/{id}': {
    operationId: 'deleteJob',
    summary: 'Delete a job',
    description: 'Deletes the job, its tasks and every stored file of it (sources, outputs, reports). A running job is stopped first.',
    tags: ['Jobs'],
    parameters: [jobIdParameter],
    success: { 200: ['The job was deleted.', 'DeletedJob'] },
    errors: [404],
  },
  'POST /jobs/{id}/review': {
    operationId: 'reviewJob',
    summary: 'Review a job under manual review',
    description: `Admin keys only. For a finished job whose \`policy.onFail\` is \`manual_review\`: records
\`review: { decision, note, at, keyId }\` once and recomputes \`canProceed\`.`,
    tags: ['Jobs'],
    parameters: [jobIdParameter],
    requestBody: 'ReviewRequest',
    success: { 200: ['The reviewed job.', 'JobEnvelope'] },
    errors: [400, 403, 404, 409, 415],
  },
  'POST /jobs/{id}/share': {
    operationId: 'shareJob',
    summary: 'Make a share link to the job\'s proof page',
    description: `A link for the shop's customer: \`url\` opens the proof page of this one job (its files, pages with the
findings boxed, the customer-facing sentences, the fixed file), without a key. \`expiresInSeconds\`: 60 to 2592000
(30 days), default 604800 (7 days). With \`allowDecision: true\` the customer may approve or request changes, once per
job. The link's token is HMAC-signed and bound to the job and the account; it is in the URL's fragment, so it reaches
no server log, and it is never an API key.`,
    tags: ['Sharing'],
    parameters: [jobIdParameter],
    requestBody: 'ShareRequest',
    success: { 201: ['The link and when it expires.', 'ShareLink'] },
    errors: [400, 404, 415],
  },
  'DELETE /jobs/{id}/share': {
    operationId: 'revokeJobShares',
    summary: 'Revoke every share link of the job',
    description: 'Every link made for the job so far stops working at once (410 `share_link_revoked`); links made afterwards work.',
    tags: ['Sharing'],
    parameters: [jobIdParameter],
    success: { 204: ['The job\'s links are revoked.', null] },
    errors: [404],
  },
  'GET /share': {
    operationId: 'getSharedJob',
    summary: 'The proof page\'s view of a shared job',
    description: `No key: the share link's token in the \`Share-Token\` header. The one job it names, read-only: per file its
name, state, preflight verdict, the findings' sentences (numbered as on the proof images), its pages as image URLs with
each located finding's boxes in percent of the image, and the fixed file; the job's \`approval\` once decided.
A token that was altered or not made by us is 403 \`share_link_invalid\`; an expired one 410 \`share_link_expired\`; a
revoked one (or one of a deleted job) 410 \`share_link_revoked\`.`,
    tags: ['Sharing'],
    parameters: [shareTokenParameter],
    success: { 200: ['The shared job.', 'SharedJob'] },
    errors: [403, 410],
  },
  'POST /share/decision': {
    operationId: 'decideSharedJob',
    summary: 'Approve the shared proof or request changes',
    description: `No key: a token of a link made with \`allowDecision: true\` (else 403 \`decision_not_allowed\`) in the
\`Share-Token\` header. Records \`approval: { decision, note, at }\` on the finished job (409 \`job_not_terminal\`
before) once per job (409 \`already_decided\` after), sends the job's webhook \`job.approved\` or
\`job.changes_requested\`, and for a job under \`manual_review\` without a review records it as the review
(\`approved\` → \`approve\`, \`changes_requested\` → \`reject\`, \`keyId: "share-link"\`).`,
    tags: ['Sharing'],
    parameters: [shareTokenParameter],
    requestBody: 'DecisionRequest',
    success: { 200: ['The shared job, with its approval.', 'SharedJob'] },
    errors: [400, 403, 409, 410, 415],
  },
  'POST /uploads': {
    operationId: 'createUpload',
    summary: 'Upload a file',
    description: `Reserves an upload: send a multipart/form-data POST to \`upload.url\` with every entry of \`fields\` first and
the file last, in a part named \`file\`. Storage refuses a file larger than \`sizeBytes\`. Then use \`fileRef\` as a
source — only in this account, and only once the file is there.`,
    tags: ['Uploads'],
    requestBody: 'CreateUploadRequest',
    success: { 200: ['Where and how to upload.', 'Upload'] },
    errors: [400, 409, 415],
  },
  'GET /profiles': {
    operationId: 'listProfiles',
    summary: 'List profiles, validate codes, fixes and step types',
    description: `The preflight profiles (with their checks and recommended fixes): the built-ins (\`source: "store"\`), then the
account's own (\`source: "account"\`, with \`base\`, \`version\` and \`changes\`); every threshold an account profile may set with
its unit and range (\`thresholdSpecs\`); the validate profile codes, the fixes autofix can apply, the optimize step's options
with their defaults (\`optimize\`), and the step types with the file types they accept.`,
    tags: ['Profiles'],
    success: { 200: ['What a job can ask for.', 'Profiles'] },
    errors: [],
  },
  'POST /profiles': {
    operationId: 'createProfile',
    summary: "Create one of the account's own preflight profiles",
    description: `Admin keys only. A built-in profile (\`base\`) with some checks' severity and thresholds changed, and
optionally its own \`recommendFixes\`. A check not named runs as in the base; thresholds not given keep the base's; a
check the base has off may be turned on with a value for each threshold the base lacks. Every value is checked against
the threshold's unit and range (GET /profiles \`thresholdSpecs\`): an unknown check, threshold or fix, or a value out of
range, is a 400 whose \`param\` points at it, such as \`checks["colour.tac"].thresholds.max_percent\`. \`kind\` is the
base's (every built-in is \`pdf\`). \`id\` (a slug, not a built-in's) defaults to one made from the name; an id the
account has is 409 \`profile_exists\`. At most 200 profiles per account (409 \`profile_limit_reached\`). Any key of the
account may then name it as \`profileId\`; another account never sees it.`,
    tags: ['Profiles'],
    requestBody: 'ProfileRequest',
    success: { 201: ['The profile, as GET /profiles/{id} shows it.', 'ProfileEnvelope'] },
    errors: [400, 403, 409, 415],
  },
  'GET /profiles/{id}': {
    operationId: 'getProfile',
    summary: 'Get a preflight profile',
    description: "One preflight profile by id, a built-in or one of the account's own, as GET /profiles lists it, in `{ profile }`.",
    tags: ['Profiles'],
    parameters: [profileIdParameter],
    success: { 200: ['The profile.', 'ProfileEnvelope'] },
    errors: [404],
  },
  'PUT /profiles/{id}': {
    operationId: 'replaceProfile',
    summary: "Replace one of the account's own profiles",
    description: `Admin keys only. The whole definition again (as POST /profiles takes it; \`id\`, if given, must be the
path's), stored as the next \`version\`. Jobs submitted before keep the version they were submitted with.`,
    tags: ['Profiles'],
    parameters: [profileIdParameter],
    requestBody: 'ProfileRequest',
    success: { 200: ['The profile, with its new version.', 'ProfileEnvelope'] },
    errors: [400, 403, 404, 415, 503],
  },
  'DELETE /profiles/{id}': {
    operationId: 'deleteProfile',
    summary: "Delete one of the account's own profiles",
    description: 'Admin keys only. Jobs submitted with it are not affected; new jobs naming it are 400 `profile_not_found`.',
    tags: ['Profiles'],
    parameters: [profileIdParameter],
    success: { 204: ['The profile is deleted.', null] },
    errors: [403, 404],
  },
};
