/**
 * Synthesizes the Proofline stack the way `npx cdk synth` does (same feature
 * flags from cdk.json), for the CDK tests. Two modes:
 * - template only (bundling skipped through CDK's own `aws:cdk:bundling-stacks`
 *   context, as `cdk synth --exclusively` does), fast, for assertions on intent;
 * - bundled, into an output directory, for inspecting the Lambda assets.
 * A Lambda entry that does not exist yet is replaced by a placeholder module;
 * `placeholderEntries` says which, so a test can report what it did not cover.
 */
import { existsSync, readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { ProoflineStack, type ProoflineStackProps } from '../../../lib/proofline-stack';
import { repoPath, type EntryResolver } from '../../../lib/paths';

export const CDK_CONTEXT: Record<string, unknown> = JSON.parse(readFileSync(repoPath('cdk.json'), 'utf8')).context;

export const PLACEHOLDER_ENTRY = repoPath('test/cdk/fixtures/placeholder-handler.ts');

export const TEST_ENV = { account: '123456789012', region: 'eu-west-1' } as const;

export interface Synthesized {
  app: App;
  stack: ProoflineStack;
  template: Template;
  /** Entries (repo-relative) that were missing and bundled as the placeholder. */
  placeholderEntries: string[];
}

function placeholderResolver(used: string[]): EntryResolver {
  return (entry) => {
    const path = repoPath(entry);
    if (existsSync(path)) return path;
    used.push(entry);
    return PLACEHOLDER_ENTRY;
  };
}

export interface SynthOptions {
  /** Bundle every function into this directory (slow); otherwise bundling is skipped. */
  bundleInto?: string;
  stackProps?: Omit<ProoflineStackProps, 'resolveEntry' | 'env'>;
}

export function synthProofline(options: SynthOptions = {}): Synthesized & { assembly?: CloudAssembly } {
  const bundling = options.bundleInto !== undefined;
  const app = new App({
    ...(bundling ? { outdir: options.bundleInto } : {}),
    context: { ...CDK_CONTEXT, ...(bundling ? {} : { 'aws:cdk:bundling-stacks': [] }) },
  });
  const placeholderEntries: string[] = [];
  const stack = new ProoflineStack(app, 'Proofline', {
    env: TEST_ENV,
    ...options.stackProps,
    resolveEntry: placeholderResolver(placeholderEntries),
  });
  const template = Template.fromStack(stack);
  const assembly = bundling ? app.synth() : undefined;
  return { app, stack, template, placeholderEntries, assembly };
}
