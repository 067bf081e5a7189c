/**
 * The security review a deployment gets: cdk-nag's AwsSolutions pack over the synthesized stack,
 * registered as CDK 3 packs are (`Validations.of(app).addPlugins`), so synthesis itself refuses a
 * stack with an unacknowledged error. Every acknowledgement (lib/constructs/nag-acknowledgements.ts)
 * names its rule and finding, sits on the construct it is about, and says why.
 */
import { describe, expect, it } from 'vitest';
import { App, Validations, type PolicyValidationPluginReport } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { synthProofline } from './support/synth';

/** `error AwsSolutions-L1 Proofline/Api/HealthFunction/Resource`, one line per finding and resource. */
function findings(report: PolicyValidationPluginReport, severity: 'error' | 'warning'): string[] {
  return report.violations
    .filter((v) => v.severity === severity)
    .flatMap((v) => v.violatingResources.map((r) => `${v.ruleName} ${r.constructPath}`))
    .sort();
}

/** The acknowledgements recorded on the construct tree: rule id → reason, per construct path. */
function acknowledgements(app: App): { path: string; id: string; reason: string }[] {
  const all: { path: string; id: string; reason: string }[] = [];
  for (const construct of app.node.findAll()) {
    for (const entry of construct.node.metadata) {
      if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
      for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
        all.push({ path: construct.node.path, id: id.replace(/^annotation::/i, ''), reason });
      }
    }
  }
  return all;
}

describe('the AwsSolutions security review', () => {
  const { app } = synthProofline();
  const pack = new AwsSolutionsChecks(app);
  const report = pack.validateScope(app);

  it('finds no unacknowledged error in the stack as deployed by default', () => {
    expect(findings(report, 'error')).toEqual([]);
  });

  it('lets the stack synthesize with the pack registered as a validation plugin', () => {
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth({ force: true })).not.toThrow();
  });

  it('finds no unacknowledged warning either: CDK refuses to synthesize with any finding of a plugin', () => {
    expect(findings(report, 'warning')).toEqual([]);
  });

  it('acknowledges each finding on a construct of the stack, by its full rule id, with a reason', () => {
    const acks = acknowledgements(app);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(ack.path, ack.id).toMatch(/^Proofline\//);
      expect(ack.id, ack.path).toMatch(/^AwsSolutions-[A-Z]+[0-9]+(\[.+\])?$/);
      expect(ack.reason.length, `${ack.id} on ${ack.path}`).toBeGreaterThan(40);
    }
    // Never a blanket acknowledgement of a rule for the whole stack.
    expect(acks.filter((a) => a.path === 'Proofline')).toEqual([]);
  });

  it('runs as a validation plugin: synthesis refuses a stack that gains an unacknowledged error', () => {
    const { app: fresh, stack } = synthProofline();
    Validations.of(fresh).addPlugins(new AwsSolutionsChecks(fresh));
    // A hand-written wildcard policy, as a careless change would add it.
    stack.api.handlers['health']!.addToRolePolicy(new PolicyStatement({ actions: ['s3:*'], resources: ['*'] }));
    expect(() => fresh.synth({ force: true })).toThrow(/AwsSolutions-IAM5\[Action::s3:\*\]/);
    // (Its Resource "*" passes: on a function's role that finding is acknowledged for X-Ray, which
    // has no resource-level permissions; cdk-nag 3 matches findings by id, not by statement.)
    expect(findings(new AwsSolutionsChecks(fresh).validateScope(fresh), 'error')).toEqual([
      'AwsSolutions-IAM5[Action::s3:*] Proofline/Api/HealthFunctionServiceRole/DefaultPolicy/Resource',
    ]);
  });
});
