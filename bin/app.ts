#!/usr/bin/env node
/**
 * The CDK app: `npx cdk synth` / `npx cdk deploy` (cdk.json runs this with tsx).
 * Synthesis works offline; the linux-arm64 native modules it ships were fetched
 * at npm install time (bin/vendor-lambda-binaries.mjs).
 *
 * Account and region come from the CLI's credentials (CDK_DEFAULT_ACCOUNT/REGION);
 * an account/region is bootstrapped once with `npx cdk bootstrap` before the first deploy.
 * Context overrides (`npx cdk deploy -c key=value`, or "context" in cdk.json):
 *   stackName             stack name (default Proofline); deploy several side by side
 *   retainData            false to delete the bucket (with its files) and table with the stack (default true)
 *   corsOrigins           comma-separated browser origins allowed on presigned URLs (default none)
 *   consoleOrigin         the web console's origin when it is a custom domain (https://host), allowed to upload to the bucket from a browser (default https://*.cloudfront.net, the stack's own distribution)
 *   stageName             API stage, first path segment of ApiUrl (default v1)
 *   throttleRate          stage requests per second (default 100)
 *   throttleBurst         stage burst (default 200)
 *   apiAccessLogs         false to turn off API Gateway access/execution logs (default true; they create the account's CloudWatch role)
 *   webAcl                true for an AWS WAF web ACL on the API stage: AWS managed rule groups and a rate rule (default false)
 *   webAclRateLimit       with webAcl, requests per client address in 5 minutes before WAF blocks it (default 2000)
 *   webhookRetrySchedule  comma-separated seconds between webhook attempts (default 5,300,1800,7200,18000,36000,36000)
 *   retentionDays         days after which a job, its records and its files are deleted (default 30; per account: npm run keys -- retention)
 *   alarmEmail            an e-mail address subscribed to the alarm topic (default none; the address must confirm)
 */
import '../lambdas/platform/polyfills';
import { App } from 'aws-cdk-lib';
import { parseSchedule } from '../lambdas/platform/config';
import { ProoflineStack } from '../lib/proofline-stack';

const app = new App();

const context = (key: string): string | undefined => {
  const value: unknown = app.node.tryGetContext(key);
  return value === undefined || value === null || value === '' ? undefined : String(value);
};

function numberContext(key: string): number | undefined {
  const raw = context(key);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`context ${key} must be a positive number, got "${raw}"`);
  return n;
}

function booleanContext(key: string): boolean | undefined {
  const raw = context(key);
  if (raw === undefined) return undefined;
  if (raw !== 'true' && raw !== 'false') throw new Error(`context ${key} must be true or false, got "${raw}"`);
  return raw === 'true';
}

const stackName = context('stackName') ?? 'Proofline';
const corsOrigins = context('corsOrigins');
const schedule = context('webhookRetrySchedule');

new ProoflineStack(app, stackName, {
  stackName,
  description: 'Proofline: preflight, autofix, PDF/A and PDF/UA validation and previews for print files.',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  retainData: booleanContext('retainData'),
  corsAllowedOrigins: corsOrigins?.split(',').map((o) => o.trim()).filter(Boolean),
  consoleOrigin: context('consoleOrigin'),
  stageName: context('stageName'),
  throttlingRateLimit: numberContext('throttleRate'),
  throttlingBurstLimit: numberContext('throttleBurst'),
  apiAccessLogs: booleanContext('apiAccessLogs'),
  webAcl: booleanContext('webAcl'),
  webAclRateLimit: numberContext('webAclRateLimit'),
  webhookRetrySchedule: schedule === undefined ? undefined : parseSchedule(schedule),
  retentionDays: numberContext('retentionDays'),
  alarmEmail: context('alarmEmail'),
});

app.synth();
