/**
 * The named schemas of the OpenAPI document, generated from the zod schemas the
 * API validates requests with (read as input: defaults make fields optional)
 * and the response schemas (read as output). Nested schemas registered here
 * become `$ref`s; everything else is inlined.
 */
import { z } from 'zod';
import { STEP_TYPES } from '../../domain/model';
import { webhook } from '../schemas/common';
import { createJobBody, jobSource } from '../schemas/create-job-body';
import { orderContext } from '../schemas/order-context';
import { fixJobBody, fixSource } from '../schemas/fix-job-body';
import { optimizeJobBody, optimizeSource } from '../schemas/optimize-job-body';
import { preflightJobBody, preflightSource } from '../schemas/preflight-job-body';
import { previewsJobBody, previewsSource } from '../schemas/previews-job-body';
import { profileBody } from '../schemas/profile-body';
import { reviewBody } from '../schemas/review-body';
import { decisionBody, shareBody } from '../schemas/share-body';
import { stepVariants } from '../schemas/steps';
import { uploadBody } from '../schemas/upload-body';
import { validateJobBody, validateSource } from '../schemas/validate-job-body';
import * as responses from './response-schemas';

type JsonSchema = Record<string, unknown>;

export const schemaRef = (id: string): { $ref: string } => ({ $ref: `#/components/schemas/${id}` });

function requestRegistry() {
  const registry = z.registry<{ id: string }>();
  registry.add(createJobBody, { id: 'CreateJobRequest' });
  registry.add(jobSource, { id: 'JobSource' });
  STEP_TYPES.forEach((type, i) => registry.add(stepVariants[i]!, { id: `${type[0]!.toUpperCase()}${type.slice(1)}Step` }));
  registry.add(orderContext, { id: 'OrderContext' });
  registry.add(webhook, { id: 'Webhook' });
  registry.add(preflightJobBody, { id: 'PreflightJobRequest' });
  registry.add(preflightSource, { id: 'PreflightSource' });
  registry.add(fixJobBody, { id: 'FixJobRequest' });
  registry.add(fixSource, { id: 'FixSource' });
  registry.add(validateJobBody, { id: 'ValidateJobRequest' });
  registry.add(validateSource, { id: 'ValidateSource' });
  registry.add(previewsJobBody, { id: 'PreviewsJobRequest' });
  registry.add(previewsSource, { id: 'PreviewsSource' });
  registry.add(optimizeJobBody, { id: 'OptimizeJobRequest' });
  registry.add(optimizeSource, { id: 'OptimizeSource' });
  registry.add(reviewBody, { id: 'ReviewRequest' });
  registry.add(uploadBody, { id: 'CreateUploadRequest' });
  registry.add(shareBody, { id: 'ShareRequest' });
  registry.add(decisionBody, { id: 'DecisionRequest' });
  registry.add(profileBody, { id: 'ProfileRequest' });
  return registry;
}

function responseRegistry() {
  const registry = z.registry<{ id: string }>();
  registry.add(responses.artifactResponse, { id: 'Artifact' });
  registry.add(responses.auditEntryResponse, { id: 'AuditEntry' });
  registry.add(responses.stepResponse, { id: 'Step' });
  registry.add(responses.progressResponse, { id: 'Progress' });
  registry.add(responses.taskResponse, { id: 'Task' });
  registry.add(responses.jobSummaryResponse, { id: 'JobSummary' });
  registry.add(responses.jobResultsResponse, { id: 'JobResults' });
  registry.add(responses.jobResponse, { id: 'Job' });
  registry.add(responses.jobEnvelope, { id: 'JobEnvelope' });
  registry.add(responses.pendingJobEnvelope, { id: 'PendingJobEnvelope' });
  registry.add(responses.jobRunsResponse, { id: 'JobRuns' });
  registry.add(responses.jobListResponse, { id: 'JobList' });
  registry.add(responses.deleteJobResponse, { id: 'DeletedJob' });
  registry.add(responses.uploadResponse, { id: 'Upload' });
  registry.add(responses.profilesResponse, { id: 'Profiles' });
  registry.add(responses.listedProfile, { id: 'Profile' });
  registry.add(responses.profileEnvelope, { id: 'ProfileEnvelope' });
  registry.add(responses.approvalResponse, { id: 'Approval' });
  registry.add(responses.shareLinkResponse, { id: 'ShareLink' });
  registry.add(responses.sharedJobResponse, { id: 'SharedJob' });
  registry.add(responses.healthResponse, { id: 'Health' });
  registry.add(responses.errorResponseSchema, { id: 'Error' });
  return registry;
}

function generate(registry: ReturnType<typeof requestRegistry>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `#/components/schemas/${id}`,
    // Refinements (exactly one locator, known profile ids) cannot be expressed; descriptions say them.
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonSchema> };
  if ('__shared' in schemas) throw new Error('openapi: a schema would land in __shared; register it by id');
  const out: Record<string, JsonSchema> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    // Each component is a fragment of one document, not a standalone JSON Schema resource.
    const { $schema: _schema, $id: _id, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

export function componentSchemas(): Record<string, JsonSchema> {
  const requests = generate(requestRegistry(), 'input');
  const responsesOut = generate(responseRegistry(), 'output');
  for (const id of Object.keys(responsesOut)) {
    if (id in requests) throw new Error(`openapi: schema id ${id} is used twice`);
  }
  return { ...requests, ...responsesOut };
}
