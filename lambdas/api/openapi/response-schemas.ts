/**
 * The response bodies of the API (docs/api.md §3, §4), in zod, for the OpenAPI
 * document (and for tests, which check the presenter's output against them so
 * the document cannot drift from what the API returns). Objects are open
 * (`z.looseObject`): clients must tolerate fields added later.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../../domain/errors';
import { CHANNELS, FILE_TYPES, ON_FAIL_POLICIES, OUTCOMES, STATUSES, STEP_TYPES } from '../../domain/model';

const appliedFix = z.looseObject({ fixId: z.string(), count: z.number().int(), pages: z.array(z.number().int()) });
const skippedFix = z.looseObject({ fixId: z.string(), reason: z.string() });

const timestamp = z.string().meta({ description: 'ISO 8601 UTC with milliseconds.', examples: ['2026-07-29T10:15:02.000Z'] });
const status = z.enum(STATUSES);
const outcome = z.enum(OUTCOMES).nullable().meta({ description: 'null until terminal; see docs/api.md §2.' });

export const artifactResponse = z.looseObject({
  kind: z.enum(['file', 'report', 'image']),
  role: z.enum(['source', 'fixed', 'optimized', 'preflight-report', 'validation-report', 'preview', 'proof', 'thumbnail']),
  bucket: z.string(),
  key: z.string(),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  fileName: z.string(),
  page: z.number().int().optional().meta({ description: 'Page number (1-based) of page images.' }),
  width: z.number().int().optional().meta({ description: 'Pixel width of images.' }),
  height: z.number().int().optional().meta({ description: 'Pixel height of images.' }),
  downloadUrl: z.string().meta({ description: 'Presigned GET, valid for expiresIn seconds.' }),
  expiresIn: z.number().int().meta({ description: 'Seconds (3600).' }),
});

export const previewsOutputsResponse = z.looseObject({
  kind: z.literal('previews'),
  count: z.number().int().meta({ description: 'Pages rendered.' }),
  total: z.number().int().nullable().meta({ description: 'Pages in the file.' }),
  pages: z.array(
    z.looseObject({
      page: z.number().int(),
      url: z.string().meta({ description: 'The presigned page image (on reads; not in webhook bodies).' }),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      mimeType: z.string(),
    }),
  ),
});

export const validateOutputsResponse = z.looseObject({
  kind: z.literal('validate'),
  profile: z.array(z.string()).meta({ description: 'The profile codes asked for.' }),
  result: z.looseObject({
    results: z.array(
      z.looseObject({
        profile: z.string().meta({ description: 'The code asked for and the one matched, as `auto:1b`.' }),
        profileName: z.string().nullable(),
        compliant: z.boolean(),
        passedChecks: z.number().int(),
        failedChecks: z.number().int(),
        passedRules: z.number().int(),
        failedRules: z.number().int(),
        failedRuleDetails: z.array(z.looseObject({})),
      }),
    ),
  }),
});

export const auditEntryResponse = z.looseObject({
  at: timestamp,
  event: z.string().meta({ description: 'source.received, source.fetched, type.detected, step.started, step.finished, step.skipped, step.failed, step.retried, task.failed, task.finished …' }),
  stepId: z.string().optional(),
  message: z.string(),
});

export const stepResponse = z.looseObject({
  id: z.string(),
  type: z.enum(STEP_TYPES),
  status,
  outcome,
  reason: z.string().nullable().meta({ description: 'Why the step was skipped or failed.' }),
  params: z.record(z.string(), z.unknown()).meta({ description: 'As submitted.' }),
  runtimeParams: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'What was actually applied after defaults and context.' }),
  started: timestamp.nullable(),
  ended: timestamp.nullable(),
  duration: z.number().nullable().meta({ description: 'Milliseconds.' }),
  inStream: z.null().meta({ description: 'A field of the original service that means nothing here: always null.' }),
  outputs: z
    .array(z.union([artifactResponse, previewsOutputsResponse, validateOutputsResponse]))
    .meta({
      description:
        'The files the step wrote. A finished previews step adds a `{ kind: "previews", … }` entry, a validate step a `{ kind: "validate", … }` entry, and a preflight report file carries `body.summary`.',
    }),
});

export const progressResponse = z
  .looseObject({
    stepsDone: z.number().int().meta({ description: 'Steps that are terminal (done, skipped or error).' }),
    stepsTotal: z.number().int(),
    pagesDone: z.number().int().meta({ description: 'Pages the current step has worked through: previews rendered, preflight analysed; 0 until it reports any.' }),
    pagesTotal: z.number().int().nullable().meta({ description: 'Pages the current step works through; null until known.' }),
    percent: z.number().int().min(0).max(100).meta({ description: 'Steps weighed alike, the running step refined by its pages; 100 only once terminal, and never lower than before.' }),
  })
  .meta({
    description:
      'How far it has got, for people watching (docs/api.md §4). The current step is the one running, else the last that counted pages. A job sums its tasks\' steps and the pages of those that know them, and averages their percentages.',
  });

export const taskResponse = z.looseObject({
  id: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  status,
  outcome,
  fileType: z.enum(FILE_TYPES).nullable().meta({ description: 'Detected from the bytes once ingested.' }),
  mimeType: z.string().nullable(),
  source: z.string().meta({ description: 'The URL, or the file name.' }),
  name: z.string().nullable(),
  fileRef: z.string().nullable(),
  clientRef: z.string().nullable(),
  jobId: z.string(),
  wfKind: z.null().meta({ description: 'A field of the original service that means nothing here: always null.' }),
  wfPhase: z.null().meta({ description: 'A field of the original service that means nothing here: always null.' }),
  inputArtifact: artifactResponse.nullable().meta({ description: 'The file the task started from, once stored.' }),
  currentArtifact: artifactResponse.nullable().meta({ description: 'The file as the last step left it: the fixed or optimized file, else the original.' }),
  originalArtifact: artifactResponse.nullable(),
  outputArtifacts: z.array(artifactResponse).meta({ description: "Its steps' outputs, in step order." }),
  steps: z.array(stepResponse).optional().meta({ description: 'Absent in the lean entries of GET /jobs?preview=true.' }),
  audit: z.array(auditEntryResponse),
  reason: z.string().optional().meta({ description: 'Why the task is in error (only then).' }),
  progress: progressResponse,
});

const policy = z.looseObject({ onFail: z.enum(ON_FAIL_POLICIES) });

export const jobSummaryResponse = z.looseObject({
  id: z.string(),
  status,
  outcome,
  canProceed: z.boolean().nullable(),
  ruleId: z.string().nullable(),
  channel: z.enum(CHANNELS),
  customerId: z.string().nullable(),
  orderId: z.string().nullable(),
  policy,
  metaData: z.record(z.string(), z.unknown()).nullable(),
  taskIds: z.array(z.string()),
  sourceRefs: z.array(z.looseObject({ taskId: z.string(), bucket: z.string(), key: z.string() })).meta({ description: "Each task's source object in storage, once stored." }),
  created: z.number().meta({ description: 'Epoch milliseconds.' }),
  finalized: z.string().nullable().meta({ description: 'When the job became terminal, ISO 8601.' }),
  domainIdx: z.null().meta({ description: "The original service's tenant index: always null here." }),
});

const count = z.looseObject({ passed: z.number().int(), failed: z.number().int() });

export const jobResultsResponse = z
  .looseObject({
    preflight: z
      .array(
        z.looseObject({
          taskId: z.string(),
          stepId: z.string(),
          stepType: z.enum(['preflight', 'repreflight']),
          status,
          outcome,
          report: z.record(z.string(), z.unknown()).nullable().meta({ description: 'The preflight report; null when the step failed.' }),
        }),
      )
      .optional(),
    validate: z
      .array(
        z.looseObject({
          taskId: z.string(),
          status,
          outcome,
          compliant: z.boolean(),
          profiles: z.array(
            z.looseObject({
              requested: z.string(),
              matched: z.string().nullable(),
              profileName: z.string().nullable(),
              compliant: z.boolean(),
              checks: count,
              rules: count,
              failures: z.array(z.record(z.string(), z.unknown())),
            }),
          ),
        }),
      )
      .optional(),
    autofix: z
      .array(
        z.looseObject({
          taskId: z.string(),
          applied: z.array(appliedFix).meta({ description: 'Totals over the rounds: each fix that changed something, its counts added and its pages joined.' }),
          skipped: z.array(skippedFix).meta({ description: 'Totals over the rounds: each fix that never changed anything, with the reason it gave last.' }),
          rounds: z
            .array(z.looseObject({ applied: z.array(appliedFix), skipped: z.array(skippedFix) }))
            .meta({
              description:
                'Each round: without params.items, autofix checks its result again with the same profile and context and applies what is then recommended, until no fixable finding remains, a round changes nothing, or 3 rounds. With items: one round.',
            }),
        }),
      )
      .optional(),
    previews: z.array(z.looseObject({ taskId: z.string(), pages: z.number().int() })).optional(),
    optimize: z
      .array(
        z.looseObject({
          taskId: z.string(),
          status,
          outcome,
          output: z
            .looseObject({
              bucket: z.string(),
              key: z.string(),
              sizeBytes: z.number().int(),
              sizeBytesBefore: z.number().int(),
              downloadUrl: z.string().meta({ description: 'Presigned GET of the optimized file, valid for expiresIn seconds.' }),
              expiresIn: z.number().int(),
              appliedFixes: z.array(z.string()),
              skippedFixes: z.array(z.looseObject({ id: z.string(), reason: z.string() })),
            })
            .nullable()
            .meta({ description: 'The optimized file; null when the file did not get smaller (the original stays the deliverable) or the step failed.' }),
        }),
      )
      .optional(),
  })
  .meta({ description: 'Keys only for step types that ran; one entry per step, in step order.' });

export const approvalResponse = z.looseObject({
  decision: z.enum(['approved', 'changes_requested']),
  note: z.string().nullable(),
  at: timestamp,
});

export const jobResponse = z.looseObject({
  id: z.string(),
  createdAt: timestamp,
  modifiedAt: timestamp,
  status,
  outcome,
  canProceed: z.boolean().nullable().meta({ description: 'The fulfilment gate (docs/api.md §2); null until terminal.' }),
  ruleId: z.string().nullable(),
  workflowId: z.string().nullable().meta({ description: 'The orchestration run that processes the job.' }),
  wfPhase: z.null().meta({ description: 'A field of the original service that means nothing here: always null.' }),
  wfStreamStatus: z.null().meta({ description: 'A field of the original service that means nothing here: always null.' }),
  orderStatus: z.null().meta({ description: 'A field of the original service that means nothing here: always null.' }),
  orderDetails: z.null().meta({ description: 'A field of the original service that means nothing here: always null.' }),
  expiresAt: timestamp.nullable().meta({ description: 'When retention deletes the job and its files; null while none applies.' }),
  channel: z.enum(CHANNELS),
  metaData: z.record(z.string(), z.unknown()).nullable(),
  tasks: z.array(taskResponse),
  orderId: z.string().nullable(),
  customerId: z.string().nullable(),
  customerEmail: z.string().nullable(),
  policy,
  deliverables: z.array(artifactResponse.extend({ taskId: z.string() })).meta({ description: 'The final file of each finished task, with its task id.' }),
  progress: progressResponse,
  context: z.record(z.string(), z.unknown()).optional().meta({ description: 'The order context, when one was given.' }),
  webhook: z
    .looseObject({
      url: z.string(),
      deliveries: z.array(
        z.looseObject({
          attempt: z.number().int(),
          at: timestamp,
          statusCode: z.number().int().nullable(),
          durationMs: z.number(),
          error: z.string().nullable(),
        }),
      ),
    })
    .optional()
    .meta({ description: 'Present when the job has a webhook; its headers are never shown.' }),
  review: z
    .looseObject({ decision: z.enum(['approve', 'reject']), note: z.string().nullable(), at: timestamp, keyId: z.string() })
    .optional(),
  approval: approvalResponse.optional().meta({ description: 'The customer\'s decision on the shared proof page (POST /share/decision), once made.' }),
  summary: jobSummaryResponse.optional().meta({ description: 'Terminal jobs only.' }),
  results: jobResultsResponse.optional().meta({ description: 'Terminal jobs only.' }),
});

export const jobEnvelope = z.looseObject({ job: jobResponse });
export const pendingJobEnvelope = z.looseObject({ job: jobResponse, pending: z.literal(true) });

export const jobRunsResponse = z.looseObject({
  id: z.string(),
  status,
  outcome,
  canProceed: z.boolean().nullable(),
  runs: z.array(
    z.looseObject({
      id: z.string().meta({ description: 'The task id.' }),
      name: z.string(),
      status,
      outcome,
      hasOutput: z.boolean().meta({ description: "Whether the task's steps produced any file." }),
      proofs: z.array(z.looseObject({ url: z.string(), page: z.number().int().nullable() })).meta({
        description: 'Preview images in page order, or the proof images of preflight when no previews were made.',
      }),
      downloadUrl: z.string().nullable().meta({ description: 'The final file: fixed by autofix or made smaller by optimize, else the original.' }),
      reportUrl: z.string().nullable().meta({ description: 'The report of the last check step that finished.' }),
    }),
  ),
});

export const jobListResponse = z.looseObject({
  jobs: z.array(jobResponse),
  nextKey: z.string().nullable().meta({ description: 'Pass as `nextKey` for the next page; null on the last page.' }),
});

export const deleteJobResponse = z.looseObject({ id: z.string(), taskIds: z.array(z.string()) });

export const uploadResponse = z.looseObject({
  fileRef: z.string().meta({ description: 'Use as a source\'s `fileRef` once the file is uploaded.' }),
  upload: z.looseObject({
    url: z.string(),
    fields: z.record(z.string(), z.string()).meta({ description: 'Send every field first, then the file in a part named `file`.' }),
    method: z.literal('POST'),
  }),
  maxBytes: z.number().int(),
  expiresIn: z.number().int().meta({ description: 'Seconds the upload form stays valid.' }),
});

export const listedProfile = z.looseObject({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(['pdf', 'raster']).meta({ description: 'The kind of file the profile is for. Ours are print-PDF profiles that judge image files too: see fileTypes.' }),
  source: z.enum(['store', 'account']).meta({ description: '`store` for the built-in profiles.' }),
  fileTypes: z.array(z.enum(FILE_TYPES)).meta({ description: 'The file types the profile judges.' }),
  checks: z.array(
    z.looseObject({
      id: z.string(),
      severity: z.enum(['error', 'warn', 'info', 'off']),
      description: z.string(),
      thresholds: z.record(z.string(), z.union([z.number(), z.string(), z.boolean()])).optional(),
    }),
  ),
  defaultFixes: z.array(z.string()),
  base: z.string().optional().meta({ description: 'An account\'s own profile: the built-in profile it is made from.' }),
  version: z.number().int().optional().meta({ description: 'An account\'s own profile: 1 at creation, one more at each PUT. Jobs show the version they ran with in `runtimeParams.profileVersion`.' }),
  changes: z
    .record(z.string(), z.looseObject({ severity: z.enum(['error', 'warn', 'info', 'off']).optional(), thresholds: z.record(z.string(), z.union([z.number(), z.boolean()])).optional() }))
    .optional()
    .meta({ description: 'An account\'s own profile: what it changes about its base, by check id, as it was written.' }),
  createdAt: timestamp.optional(),
  updatedAt: timestamp.optional(),
});

export const profileEnvelope = z.looseObject({ profile: listedProfile });

export const profilesResponse = z.looseObject({
  profiles: z.array(listedProfile),
  thresholdSpecs: z
    .array(
      z.looseObject({
        check: z.string(),
        name: z.string(),
        type: z.enum(['number', 'boolean']),
        unit: z.enum(['mm', 'pt', 'ppi', 'percent', 'px', 'boolean']),
        min: z.number().optional(),
        max: z.number().optional(),
        integer: z.boolean().optional(),
        description: z.string(),
      }),
    )
    .meta({ description: 'Every threshold an account\'s own profile may set (`checks.<check>.thresholds.<name>` of POST /profiles), with its unit and range.' }),
  validateProfiles: z.array(
    z.looseObject({
      code: z.string(),
      name: z.string(),
      description: z.string(),
      standard: z.string(),
      coverage: z.enum(['partial', 'complete']),
    }),
  ),
  fixes: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      resolves: z.array(z.string()),
      params: z.array(z.looseObject({ name: z.string(), type: z.enum(['number', 'boolean', 'string']), default: z.union([z.number(), z.boolean(), z.string()]), description: z.string() })),
      appearance: z.enum(['none', 'intended']),
      runsAfter: z.array(z.string()).meta({ description: 'The fixes this one runs after when both run (it works on what they leave).' }),
      order: z.number().int().meta({ description: 'Position in the order fixes are applied in (0 first), derived from runsAfter; a request\'s order of items does not matter.' }),
    }),
  ),
  optimize: z
    .looseObject({
      accepts: z.array(z.enum(FILE_TYPES)),
      options: z.array(
        z.looseObject({
          name: z.string().meta({ description: 'The option\'s path in the optimize step\'s params, such as `pdf.maxImagePpi`.' }),
          type: z.enum(['number', 'boolean', 'string']),
          default: z.union([z.number(), z.boolean(), z.string()]).nullable(),
          values: z.array(z.string()).optional(),
          min: z.number().optional(),
          max: z.number().optional(),
          description: z.string(),
        }),
      ),
      fixIds: z.array(z.string()).meta({ description: 'The ids results.optimize[].output names in appliedFixes and skippedFixes.' }),
    })
    .meta({ description: 'The optimize step\'s options (POST /jobs/optimize `params`) with their defaults.' }),
  steps: z.array(
    z.looseObject({
      type: z.enum(STEP_TYPES),
      accepts: z.array(z.enum(FILE_TYPES)),
      description: z.string(),
      defaults: z.record(z.string(), z.unknown()),
    }),
  ),
});

export const shareLinkResponse = z.looseObject({
  url: z.string().meta({ description: 'The proof page, with the token in the fragment: `https://…/proof#ps1.…`.' }),
  expiresAt: timestamp,
});

const percentRect = z.looseObject({ left: z.number(), top: z.number(), width: z.number(), height: z.number() });
const findingSeverity = z.enum(['error', 'warn', 'info']);

export const sharedJobResponse = z.looseObject({
  job: z.looseObject({ id: z.string(), createdAt: timestamp, status, outcome, finished: z.boolean() }),
  share: z.looseObject({ expiresAt: timestamp, allowDecision: z.boolean() }),
  approval: approvalResponse.nullable(),
  files: z.array(
    z.looseObject({
      name: z.string().meta({ description: 'The file\'s name (customer input: escape it).' }),
      status,
      outcome,
      reason: z.string().nullable(),
      preflight: z
        .looseObject({ outcome: z.enum(['pass', 'warn', 'fail']), errors: z.number().int(), warnings: z.number().int(), infos: z.number().int() })
        .nullable(),
      findings: z.array(
        z.looseObject({
          number: z.number().int().meta({ description: 'As numbered in the report and on the proof images.' }),
          severity: findingSeverity,
          message: z.string(),
          pages: z.array(z.number().int()),
          fixable: z.boolean(),
        }),
      ),
      pages: z.array(
        z.looseObject({
          page: z.number().int(),
          previewUrl: z.string().nullable().meta({ description: 'The page rendered plainly, to draw the boxes over.' }),
          proofUrl: z.string().nullable().meta({ description: 'The proof image, with the findings framed and numbered already.' }),
          width: z.number().int().nullable(),
          height: z.number().int().nullable(),
          boxes: z.array(percentRect.extend({ finding: z.number().int(), severity: findingSeverity })).meta({ description: 'In percent of the image, from its top left corner.' }),
          trimBox: percentRect.nullable(),
          bleedBox: percentRect.nullable(),
        }),
      ),
      fixed: z.looseObject({ fileName: z.string(), sizeBytes: z.number().int(), downloadUrl: z.string() }).nullable(),
    }),
  ),
});

export const healthResponse = z.looseObject({ status: z.literal('ok') });

const errorCodes = Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]];

export const errorResponseSchema = z.looseObject({
  error: z.literal(true),
  code: z.enum(errorCodes).meta({ description: 'Stable, for programs; see the table in the description of this API.' }),
  message: z.string().meta({ description: 'For people.' }),
  param: z.string().optional().meta({ description: 'The field at fault, e.g. `sources[0].url`.' }),
  requestId: z.string().meta({ description: 'Also in the `x-request-id` header.' }),
});
