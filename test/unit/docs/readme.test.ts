/**
 * The README is the user's first contract: it must list every error code the
 * service can answer with, with its status, and keep the two commands.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../../lambdas/domain/errors';
import { PREFLIGHT_PROFILES } from '../../../lambdas/engine/profile-catalogue';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it.each(Object.entries(ERROR_CODES))('lists error code %s with its status', (code, { status }) => {
    expect(readme).toMatch(new RegExp(`\\| ${status} \\| \`${code}\` \\|`));
  });

  it.each(PREFLIGHT_PROFILES.map((p) => p.id))('names preflight profile %s', (id) => {
    expect(readme).toContain(`\`${id}\``);
  });

  it('tells how to get the tools the preflight benchmarks compare with', () => {
    expect(readme).toContain('apt-get install poppler-utils');
  });

  it('shows the two commands a new user runs', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test');
  });
});
