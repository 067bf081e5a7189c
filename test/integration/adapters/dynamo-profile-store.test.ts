/**
 * The profile store against a real dynalite: one item per account and id, reads
 * confined to the account, creates that never overwrite, replaces that succeed only
 * over the version before them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { startDynalite, type StandIn } from '../../support/dynalite';
import { useStandInCredentials } from '../../support/s3rver';
import { createDynamoDocumentClient } from '../../../lambdas/adapters/aws/dynamo-client';
import { provisionTable } from '../../../lambdas/adapters/aws/provision';
import { createDynamoProfileStore } from '../../../lambdas/adapters/aws/dynamo-profile-store';
import type { AccountProfileRecord } from '../../../lambdas/domain/model';
import type { ProfileStore } from '../../../lambdas/domain/ports';

const TABLE = 'profiles-test';
let dynalite: StandIn;
let client: DynamoDBDocumentClient;
let store: ProfileStore;

beforeAll(async () => {
  useStandInCredentials();
  dynalite = await startDynalite();
  client = createDynamoDocumentClient({ region: 'us-east-1', endpoints: { dynamodb: dynalite.endpoint } });
  await provisionTable(client, TABLE);
  store = createDynamoProfileStore({ client, tableName: TABLE });
});

afterAll(async () => {
  client?.destroy();
  await dynalite?.stop();
});

const profile = (accountId: string, id: string, version = 1, maxPercent = 240): AccountProfileRecord => ({
  accountId,
  id,
  version,
  name: 'Ads',
  description: '',
  kind: 'pdf',
  base: 'default',
  checks: { 'colour.tac': { severity: 'error', thresholds: { max_percent: maxPercent } } },
  recommendFixes: null,
  createdAt: '2026-07-29T10:00:00.000Z',
  updatedAt: '2026-07-29T10:00:00.000Z',
  updatedByKeyId: 'key_1',
});

describe('the DynamoDB profile store', () => {
  it('creates a profile once per account and id, and reads it back as written', async () => {
    expect(await store.createProfile(profile('acct_a', 'ads'))).toBe(true);
    expect(await store.createProfile(profile('acct_a', 'ads', 1, 300))).toBe(false);
    expect(await store.getProfile('acct_a', 'ads')).toEqual(profile('acct_a', 'ads'));
    // The same id in another account is another profile.
    expect(await store.createProfile(profile('acct_b', 'ads', 1, 300))).toBe(true);
  });

  it('confines every read to the account', async () => {
    await store.createProfile(profile('acct_a', 'cards'));
    expect(await store.getProfile('acct_c', 'ads')).toBeNull();
    expect((await store.listProfiles('acct_a')).map((p) => p.id)).toEqual(['ads', 'cards']);
    expect((await store.listProfiles('acct_b')).map((p) => p.id)).toEqual(['ads']);
    expect(await store.listProfiles('acct_c')).toEqual([]);
    expect(await store.countProfiles('acct_a')).toBe(2);
    expect(await store.countProfiles('acct_c')).toBe(0);
  });

  it('replaces only over the version before: of two writers of the same version, one wins', async () => {
    expect(await store.replaceProfile(profile('acct_a', 'ads', 2, 250))).toBe(true);
    expect(await store.replaceProfile(profile('acct_a', 'ads', 2, 260))).toBe(false);
    expect(await store.replaceProfile(profile('acct_a', 'ads', 5, 260))).toBe(false);
    expect(await store.getProfile('acct_a', 'ads')).toEqual(profile('acct_a', 'ads', 2, 250));
    expect(await store.replaceProfile(profile('acct_a', 'gone', 2))).toBe(false);
    expect(await store.getProfile('acct_a', 'gone')).toBeNull();
  });

  it('deletes a profile of the account only', async () => {
    expect(await store.deleteProfile('acct_c', 'cards')).toBe(false);
    expect(await store.deleteProfile('acct_a', 'cards')).toBe(true);
    expect(await store.deleteProfile('acct_a', 'cards')).toBe(false);
    expect(await store.getProfile('acct_a', 'cards')).toBeNull();
    expect(await store.getProfile('acct_a', 'ads')).not.toBeNull();
  });
});
