/**
 * The Lambda functions and their IAM grants as synthesized (bundling skipped,
 * one synth for the file): the Lambda defaults, sizes from the spec tables,
 * environment, and least-privilege permissions.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Template } from 'aws-cdk-lib/assertions';
import { AUTHORIZER_ENTRY, ROUTES, routeEntry } from '../../lambdas/api/routes';
import { RUNNING_JOB_AGE_ENTRY } from '../../lib/constructs/running-job-age';
import { WORKERS, type WorkerId } from '../../step-definitions/workers';
import { RETENTION_SWEEP_ENTRY } from '../../lib/constructs/retention-sweep';
import { synthProofline, TEST_ENV } from './support/synth';
import {
  actionsOf,
  allowedActions,
  filesBucket,
  functionIdByEntry,
  mentions,
  refId,
  resource,
  resourcesOfType,
  roleIdOfFunction,
  statementsOfRole,
  statementsWith,
  type CfnResource,
  type IamStatement,
} from './support/template-queries';

let template: Template;
let functions: [string, CfnResource][];
let tableId: string;
let bucketId: string;
let pipelineId: string;
let standardPipelineId: string;

/** The routes that work with jobs and their files (routes.ts `access`, default `jobs`). */
const JOB_ROUTE_ENTRIES = [...new Set(ROUTES.filter((r) => (r.access ?? 'jobs') === 'jobs').map(routeEntry))];

const ALL_ENTRIES = [AUTHORIZER_ENTRY, ...new Set(ROUTES.map(routeEntry)), ...Object.values(WORKERS).map((w) => w.entry), RETENTION_SWEEP_ENTRY, RUNNING_JOB_AGE_ENTRY];

beforeAll(() => {
  ({ template } = synthProofline());
  functions = resourcesOfType(template, 'AWS::Lambda::Function');
  [tableId] = resourcesOfType(template, 'AWS::DynamoDB::Table')[0]!;
  [bucketId] = filesBucket(template);
  [pipelineId] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').find(([id]) => id.startsWith('PipelineJobPipeline'))!;
  [standardPipelineId] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').find(([id]) => id.startsWith('PipelineStandardJobPipeline'))!;
});

/** The functions of ours, each described by its entry; CDK's custom-resource handlers are not. */
const ours = (): [string, CfnResource][] => functions.filter(([, f]) => ALL_ENTRIES.includes(f.Properties.Description));

const envOf = (entry: string): Record<string, unknown> =>
  resource(template, functionIdByEntry(template, entry)).Properties.Environment.Variables;

describe('Lambda functions', () => {
  it('are exactly one per route handler, the authoriser, one per worker and the running-job age publisher', () => {
    expect(ours().map(([, f]) => f.Properties.Description).sort()).toEqual([...ALL_ENTRIES].sort());
  });

  it('besides ours, are only the handlers CDK adds to deploy the console and empty its bucket', () => {
    const others = functions.filter((f) => !ours().includes(f)).map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));
    expect(others.sort()).toEqual(['CustomCDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C256MiB', 'CustomS3AutoDeleteObjectsCustomResourceProviderHandler']);
  });

  it.each(ALL_ENTRIES)('%s runs on nodejs24.x (the newest Node.js runtime aws-cdk-lib offers), arm64, with X-Ray tracing and source maps', (entry) => {
    const fn = resource(template, functionIdByEntry(template, entry));
    expect(fn.Properties.Runtime).toBe('nodejs24.x');
    expect(fn.Properties.Architectures).toEqual(['arm64']);
    expect(fn.Properties.TracingConfig).toEqual({ Mode: 'Active' });
    expect(fn.Properties.Handler).toBe('index.handler');
    expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBe('--enable-source-maps');
  });

  it.each(ALL_ENTRIES)('%s names the service and the log level for the one logger and tracer (Powertools)', (entry) => {
    expect(envOf(entry)).toMatchObject({ POWERTOOLS_SERVICE_NAME: 'proofline', POWERTOOLS_LOG_LEVEL: 'INFO' });
  });

  it.each(ALL_ENTRIES)('%s may send its trace segments to X-Ray (Resource "*", the only form X-Ray offers)', (entry) => {
    const statements = statementsOfRole(template, roleIdOfFunction(template, functionIdByEntry(template, entry)));
    const xray = statementsWith(statements, 'xray:PutTraceSegments');
    expect(xray).toHaveLength(1);
    expect(actionsOf(xray[0]!).sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
    expect(xray[0]!.Resource).toBe('*');
  });

  it('log to their own groups, kept for one month, in JSON', () => {
    for (const [, fn] of ours()) {
      const groupId = refId(fn.Properties.LoggingConfig.LogGroup);
      expect(groupId).toBeDefined();
      expect(resource(template, groupId!).Properties.RetentionInDays).toBe(30);
      expect(fn.Properties.LoggingConfig.LogFormat).toBe('JSON');
    }
  });

  it.each(Object.entries(WORKERS))('worker %s gets the memory, timeout and /tmp of its WorkerSpec', (_, spec) => {
    const fn = resource(template, functionIdByEntry(template, spec.entry));
    expect(fn.Properties.MemorySize).toBe(spec.memoryMb);
    expect(fn.Properties.Timeout).toBe(spec.timeoutSeconds);
    expect(fn.Properties.EphemeralStorage).toEqual({ Size: spec.ephemeralStorageMb });
  });

  it('has the optimize worker: its own function from lambdas/steps/optimize.ts, sized like autofix', () => {
    const fn = resource(template, functionIdByEntry(template, 'lambdas/steps/optimize.ts'));
    expect(fn.Properties).toMatchObject({ MemorySize: WORKERS.autofix.memoryMb, Timeout: WORKERS.autofix.timeoutSeconds, EphemeralStorage: { Size: WORKERS.autofix.ephemeralStorageMb } });
    expect(functionIdByEntry(template, 'lambdas/steps/optimize.ts')).not.toBe(functionIdByEntry(template, WORKERS.autofix.entry));
  });

  it('tells the functions that read pdfjs data files where they are deployed', () => {
    for (const spec of Object.values(WORKERS)) {
      const env = envOf(spec.entry);
      if (spec.assets.includes('pdfjs')) expect(env.PDFJS_ASSETS_DIR, spec.entry).toBe('/var/task/pdfjs');
      else expect(env.PDFJS_ASSETS_DIR, spec.entry).toBeUndefined();
    }
  });

  it('holds ingest and the webhook caller, which fetch customers’ URLs, to the cloud network rules', () => {
    expect(envOf(WORKERS.ingest.entry).NETWORK_MODE).toBe('cloud');
    expect(envOf(WORKERS.webhookCaller.entry).NETWORK_MODE).toBe('cloud');
  });

  it('gives every function the table and bucket names', () => {
    for (const entry of ALL_ENTRIES) {
      expect(Object.keys(envOf(entry)), entry).toEqual(expect.arrayContaining(['TABLE_NAME', 'BUCKET_NAME']));
    }
  });

  it('tells the finaliser which bus to announce terminal jobs on', () => {
    const [busId] = resourcesOfType(template, 'AWS::Events::EventBus')[0]!;
    expect(refId(envOf(WORKERS.finalise.entry).EVENT_BUS_NAME)).toBe(busId);
  });

  it('tells the webhook caller the retry machine’s ARN, built from the machine’s fixed name', () => {
    const machine = resourcesOfType(template, 'AWS::StepFunctions::StateMachine').find(([id]) => id.startsWith('EventsWebhookRetries'))!;
    const name = machine[1].Properties.StateMachineName as string;
    expect(name).toBe('Proofline-webhook-retries');
    expect(envOf(WORKERS.webhookCaller.entry).WEBHOOK_STATE_MACHINE_ARN).toBe(
      `arn:aws:states:${TEST_ENV.region}:${TEST_ENV.account}:stateMachine:${name}`,
    );
  });
});

const statementsOf = (entry: string): IamStatement[] =>
  statementsOfRole(template, roleIdOfFunction(template, functionIdByEntry(template, entry)));

const TABLE_WRITES = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
const TABLE_READS = ['dynamodb:GetItem', 'dynamodb:Query'];

function expectTableAccess(entry: string, write: boolean): void {
  const statements = statementsOf(entry);
  for (const action of TABLE_READS) expect(statementsWith(statements, action).some((s) => mentions(s.Resource, tableId)), `${entry} ${action}`).toBe(true);
  for (const action of TABLE_WRITES) {
    expect(statementsWith(statements, action).some((s) => mentions(s.Resource, tableId)), `${entry} ${action}`).toBe(write);
  }
}

function expectBucketAccess(entry: string, access: 'none' | 'read' | 'readWrite'): void {
  const statements = statementsOf(entry);
  const on = (action: string): boolean => statementsWith(statements, action).some((s) => mentions(s.Resource, bucketId));
  expect(on('s3:GetObject*'), `${entry} reads`).toBe(access !== 'none');
  expect(on('s3:PutObject'), `${entry} writes`).toBe(access === 'readWrite');
  expect(on('s3:DeleteObject*'), `${entry} deletes`).toBe(access === 'readWrite');
}

describe('IAM grants', () => {
  it('never allow a wildcard action', () => {
    const statements = resourcesOfType(template, 'AWS::IAM::Policy').flatMap(([, p]) => p.Properties.PolicyDocument.Statement as IamStatement[]);
    expect(statements.length).toBeGreaterThan(0);
    const wildcards = statements.flatMap(actionsOf).filter((a) => a === '*' || a.endsWith(':*'));
    expect(wildcards).toEqual([]);
  });

  it.each(JOB_ROUTE_ENTRIES)('let route function %s read and write the table and the bucket', (entry) => {
    expectTableAccess(entry, true);
    expectBucketAccess(entry, 'readWrite');
  });

  it.each(JOB_ROUTE_ENTRIES)('let route function %s start jobs in the Express machine and stop Standard executions', (entry) => {
    const statements = statementsOf(entry);
    const start = statementsWith(statements, 'states:StartExecution');
    expect(start.map((s) => mentions(s.Resource, pipelineId))).toEqual([true]);
    const stop = statementsWith(statements, 'states:StopExecution');
    // Executions have their own ARNs: arn:…:execution:<machine name>:*, derived from the machine.
    // Express executions cannot be stopped; only the Standard machine's are.
    expect(stop.map((s) => mentions(s.Resource, standardPipelineId) && JSON.stringify(s.Resource).includes(':execution:'))).toEqual([true]);
  });

  // The profile routes (routes.ts `access`): an account's profiles are records only.
  it.each(ROUTES.filter((r) => r.access === 'readRecords').map(routeEntry))('let route function %s only read the table: no file, no execution', (entry) => {
    expectTableAccess(entry, false);
    expectBucketAccess(entry, 'none');
    expect([...allowedActions(statementsOf(entry))].filter((a) => a.startsWith('states:'))).toEqual([]);
  });

  it.each(ROUTES.filter((r) => r.access === 'records').map(routeEntry))('let route function %s read and write the table, and touch no file nor execution', (entry) => {
    expectTableAccess(entry, true);
    expectBucketAccess(entry, 'none');
    expect([...allowedActions(statementsOf(entry))].filter((a) => a.startsWith('states:'))).toEqual([]);
  });

  it('let ContinueJob start Standard executions, read and write the records, and touch no file', () => {
    const entry = WORKERS.continueJob.entry;
    const start = statementsWith(statementsOf(entry), 'states:StartExecution');
    expect(start.map((s) => mentions(s.Resource, standardPipelineId))).toEqual([true]);
    expectTableAccess(entry, true);
    expectBucketAccess(entry, 'none');
  });

  it('let the authoriser only read the table, and nothing else of ours', () => {
    expectTableAccess(AUTHORIZER_ENTRY, false);
    expectBucketAccess(AUTHORIZER_ENTRY, 'none');
    const actions = [...allowedActions(statementsOf(AUTHORIZER_ENTRY))];
    expect(actions.filter((a) => !a.startsWith('dynamodb:') && !a.startsWith('xray:') && !a.startsWith('logs:'))).toEqual([]);
  });

  it('let each function of ours write logs to its own log group only, with no managed policy', () => {
    for (const [id, fn] of ours()) {
      const roleId = roleIdOfFunction(template, id);
      expect(resource(template, roleId).Properties.ManagedPolicyArns, id).toBeUndefined();
      const logStatements = statementsOfRole(template, roleId).filter((s) => actionsOf(s).some((a) => a.startsWith('logs:')));
      expect(logStatements.flatMap(actionsOf).sort(), id).toEqual(['logs:CreateLogStream', 'logs:PutLogEvents']);
      expect(logStatements.map((s) => s.Resource), id).toEqual([{ 'Fn::GetAtt': [refId(fn.Properties.LoggingConfig.LogGroup), 'Arn'] }]);
    }
  });

  const FILE_WRITERS: WorkerId[] = ['ingest', 'preflight', 'autofix', 'validate', 'previews', 'optimize'];
  it.each(FILE_WRITERS)('let worker %s read and write the table and the bucket', (id) => {
    expectTableAccess(WORKERS[id].entry, true);
    expectBucketAccess(WORKERS[id].entry, 'readWrite');
  });

  it.each(['recordFailure', 'finalise'] as WorkerId[])('let worker %s write the table but only read files', (id) => {
    expectTableAccess(WORKERS[id].entry, true);
    expectBucketAccess(WORKERS[id].entry, 'read');
  });

  it('let the finaliser and POST /share/decision (the job-decision event) put events on our bus, and nobody else', () => {
    const [busId] = resourcesOfType(template, 'AWS::Events::EventBus')[0]!;
    const publishers = [WORKERS.finalise.entry, 'lambdas/api/decide-shared-job.ts'];
    for (const entry of [AUTHORIZER_ENTRY, ...ROUTES.map(routeEntry), ...Object.values(WORKERS).map((w) => w.entry)]) {
      const puts = statementsWith(statementsOf(entry), 'events:PutEvents');
      if (publishers.includes(entry)) expect(puts.some((s) => mentions(s.Resource, busId)), entry).toBe(true);
      else expect(puts, entry).toEqual([]);
    }
  });

  it('let the webhook caller write the table and start the retry machine, by its fixed ARN', () => {
    const entry = WORKERS.webhookCaller.entry;
    expectTableAccess(entry, true);
    expectBucketAccess(entry, 'none');
    const starts = statementsWith(statementsOf(entry), 'states:StartExecution');
    expect(starts.map((s) => s.Resource)).toEqual([
      `arn:aws:states:${TEST_ENV.region}:${TEST_ENV.account}:stateMachine:Proofline-webhook-retries`,
    ]);
  });
});
