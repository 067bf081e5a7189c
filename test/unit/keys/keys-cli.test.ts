import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestServices, type TestServices } from '../../support/test-services';
import { mockClient } from 'aws-sdk-client-mock';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { openTarget, runKeysCli, type CliIo, type OpenTarget } from '../../../bin/keys';
import { authenticate } from '../../../lambdas/domain/keys';

let t: TestServices;
beforeAll(async () => {
  t = await startTestServices();
});
afterAll(async () => {
  await t?.stop();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  opened: { stack?: string; dataDir: string }[];
}

/** Runs the tool against the test services' table, capturing its output. */
async function keys(argv: string[], env: NodeJS.ProcessEnv = {}, open?: OpenTarget): Promise<Run> {
  const out: Run = { code: -1, stdout: '', stderr: '', opened: [] };
  const io: CliIo = { stdout: (s) => (out.stdout += s), stderr: (s) => (out.stderr += s), env };
  const target: OpenTarget =
    open ??
    (async (where) => {
      out.opened.push({ stack: where.stack, dataDir: where.dataDir });
      return { keys: t.services.keys, ids: t.services.ids, clock: t.services.clock, description: 'the test table', close: async () => {} };
    });
  out.code = await runKeysCli(argv, io, target);
  return out;
}

describe('keys retention', () => {
  it("sets an account's own retention period, and `default` goes back to the deployment's", async () => {
    await keys(['create', '--account', 'cli-kept', '--json']);
    const set = await keys(['retention', '--account', 'cli-kept', '90', '--json']);
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ account: 'cli-kept', retentionDays: 90 });
    expect((await t.services.keys.getAccount('cli-kept'))!.retentionDays).toBe(90);

    const reset = await keys(['retention', '--account', 'cli-kept', 'default']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toBe("New jobs of account cli-kept are kept the deployment's period.\n");
    expect((await t.services.keys.getAccount('cli-kept'))!.retentionDays).toBeUndefined();
  });

  it('refuses a period that is not whole days (usage, 2), out of range or for an account that does not exist (1)', async () => {
    expect((await keys(['retention', '--account', 'cli-kept', '1.5'])).code).toBe(2);
    expect((await keys(['retention', '90'])).code).toBe(2);
    const tooLong = await keys(['retention', '--account', 'cli-kept', '4000']);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toMatch(/1 to 3650/);
    const nobody = await keys(['retention', '--account', 'cli-nobody', '30']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/no account cli-nobody/);
  });
});

describe('keys webhook-secret', () => {
  it("gives the account a new webhook signing secret, which deliveries read from then on", async () => {
    const first = JSON.parse((await keys(['create', '--account', 'cli-rotated', '--json'])).stdout).webhookSecret;
    const run = await keys(['webhook-secret', '--account', 'cli-rotated', '--json']);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(printed).toEqual({ account: 'cli-rotated', webhookSecret: expect.stringMatching(/^whsec_/) });
    expect(printed.webhookSecret).not.toBe(first);
    expect((await t.services.keys.getAccount('cli-rotated'))!.webhookSecret).toBe(printed.webhookSecret);
    const text = await keys(['webhook-secret', '--account', 'cli-rotated']);
    expect(text.stdout).toMatch(/^New webhook signing secret of account cli-rotated: whsec_/);
  });

  it('needs --account (usage, 2) and an account that exists (1)', async () => {
    expect((await keys(['webhook-secret'])).code).toBe(2);
    const nobody = await keys(['webhook-secret', '--account', 'cli-nobody']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/no account cli-nobody/);
  });
});

describe('keys create', () => {
  it('prints exactly { id, key, account, webhookSecret } with --json, and the key works', async () => {
    const run = await keys(['create', '--account', 'cli-shop', '--json']);
    expect(run.code).toBe(0);
    const printed = JSON.parse(run.stdout);
    expect(Object.keys(printed)).toEqual(['id', 'key', 'account', 'webhookSecret']);
    expect(printed).toMatchObject({ account: 'cli-shop', key: expect.stringMatching(/^sk_live_/), webhookSecret: expect.stringMatching(/^whsec_/) });
    expect(run.stderr).toContain('Using the test table');
    expect(await authenticate(t.services.keys, printed.key)).toEqual({ accountId: 'cli-shop', keyId: printed.id, role: 'standard' });
  });

  it('issues admin and test keys on request, for account local by default', async () => {
    const run = await keys(['create', '--role', 'admin', '--test', '--json']);
    const printed = JSON.parse(run.stdout);
    expect(printed.account).toBe('local');
    expect(printed.key).toMatch(/^sk_test_/);
    expect(await authenticate(t.services.keys, printed.key)).toMatchObject({ role: 'admin' });
  });

  it('says what it created in words without --json', async () => {
    const run = await keys(['create', '--account', 'cli-words']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Created key_[0-9a-z]{26} for account cli-words \(role standard\)\.\nSecret key \(shown only now\): sk_live_\w+\nWebhook signing secret of account cli-words: whsec_/);
  });

  it('works on DATA_DIR (default .local) unless a stack is named', async () => {
    expect((await keys(['create', '--json'])).opened).toEqual([{ stack: undefined, dataDir: expect.stringMatching(/\.local$/) }]);
    expect((await keys(['create', '--json'], { DATA_DIR: '/tmp/proofline-data' })).opened[0]!.dataDir).toBe('/tmp/proofline-data');
    expect((await keys(['list', '--stack', 'proofline-prod'])).opened[0]!.stack).toBe('proofline-prod');
    expect((await keys(['list'], { PROOFLINE_STACK: 'proofline-staging' })).opened[0]!.stack).toBe('proofline-staging');
  });

  it('wants an explicit account when creating a key in a deployed stack', async () => {
    const run = await keys(['create', '--stack', 'proofline-prod']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--account is required with --stack/);
    expect(run.opened).toEqual([]);
  });
});

describe('keys list', () => {
  it('lists the keys of an account as JSON, without secrets or hashes', async () => {
    const created = JSON.parse((await keys(['create', '--account', 'cli-list', '--json'])).stdout);
    const run = await keys(['list', '--account', 'cli-list', '--json']);
    expect(run.code).toBe(0);
    const { keys: listed } = JSON.parse(run.stdout);
    expect(listed).toEqual([{ id: created.id, account: 'cli-list', role: 'standard', prefix: created.key.slice(0, 12), createdAt: expect.any(String), revokedAt: null }]);
    expect(run.stdout).not.toContain(created.key);
  });

  it('prints a table for people', async () => {
    const created = JSON.parse((await keys(['create', '--account', 'cli-table', '--json'])).stdout);
    const run = await keys(['list', '--account', 'cli-table']);
    expect(run.stdout.split('\n')[0]).toMatch(/^ID\s+ACCOUNT\s+ROLE\s+PREFIX\s+CREATED\s+REVOKED$/);
    expect(run.stdout).toContain(created.id);
    expect((await keys(['list', '--account', 'nobody-here'])).stdout).toBe('No keys.\n');
  });
});

describe('keys revoke', () => {
  it('revokes a key so it no longer authenticates', async () => {
    const created = JSON.parse((await keys(['create', '--account', 'cli-revoke', '--json'])).stdout);
    const run = await keys(['revoke', created.id, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ id: created.id, revoked: true });
    expect(await authenticate(t.services.keys, created.key)).toBeNull();
  });

  it('fails with exit code 1 and a message for an unknown key id', async () => {
    const run = await keys(['revoke', 'key_01h00000000000000000000000']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/No key key_01h00000000000000000000000/);
    expect((await keys(['revoke', 'oops'])).stderr).toMatch(/key ids look like key_/);
  });
});

describe('usage errors', () => {
  it.each([
    [[], /a command is required/],
    [['rotate'], /unknown command "rotate"/],
    [['create', '--account', 'Bad Name'], /not a valid account name/],
    [['create', '--role', 'owner'], /--role must be one of standard, admin/],
    [['create', '--colour', 'red'], /Unknown option '--colour'/],
    [['create', 'extra'], /unexpected argument "extra"/],
    [['revoke'], /revoke needs exactly one KEY_ID/],
    [['list', '--test'], /--role and --test go with create only/],
  ])('%j exits 2 with the usage, touching no data', async (argv, message) => {
    const run = await keys(argv as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toContain('Usage: npm run keys');
    expect(run.stdout).toBe('');
    expect(run.opened).toEqual([]);
  });

  it('--help prints the usage on stdout and exits 0', async () => {
    const run = await keys(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run keys');
  });
});

describe('failures of the data store', () => {
  it('exit 1 with the reason when the data cannot be opened', async () => {
    const run = await keys(['list'], {}, async () => {
      throw new Error('no local runtime data in /tmp/x and no DATA_DIR');
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('keys: no local runtime data in /tmp/x and no DATA_DIR\n');
  });
});

describe('a deployed stack as the target', () => {
  const cloudFormation = mockClient(CloudFormationClient);
  afterAll(() => cloudFormation.restore());

  it('finds the table among the stack outputs, in AWS_REGION', async () => {
    cloudFormation.reset();
    cloudFormation.on(DescribeStacksCommand, { StackName: 'proofline-prod' }).resolves({
      Stacks: [{ StackName: 'proofline-prod', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [{ OutputKey: 'ApiUrl', OutputValue: 'https://x' }, { OutputKey: 'TableName', OutputValue: 'proofline-prod-Table-1ABC' }] }],
    });
    const target = await openTarget({ stack: 'proofline-prod', dataDir: '/unused', env: { AWS_REGION: 'eu-west-1' } });
    expect(target.description).toBe('stack proofline-prod (table proofline-prod-Table-1ABC, eu-west-1)');
    expect(cloudFormation.commandCalls(DescribeStacksCommand).map((c) => c.args[0].input)).toEqual([{ StackName: 'proofline-prod' }]);
    expect(await (cloudFormation.send.thisValues[0] as CloudFormationClient).config.region()).toBe('eu-west-1');
  });

  it('says so when the stack does not exist, has no table output, or no region is set', async () => {
    cloudFormation.reset();
    cloudFormation.on(DescribeStacksCommand, { StackName: 'missing' }).rejects(Object.assign(new Error('Stack with id missing does not exist'), { name: 'ValidationError' }));
    cloudFormation.on(DescribeStacksCommand, { StackName: 'other' }).resolves({ Stacks: [{ StackName: 'other', CreationTime: new Date(), StackStatus: 'CREATE_COMPLETE', Outputs: [] }] });
    const failing = (stack: string, env: NodeJS.ProcessEnv) => keys(['list', '--stack', stack], env, openTarget);
    expect(await failing('missing', { AWS_REGION: 'eu-west-1' })).toMatchObject({ code: 1, stderr: 'keys: no stack missing in eu-west-1\n' });
    expect(await failing('other', { AWS_REGION: 'eu-west-1' })).toMatchObject({ code: 1, stderr: expect.stringMatching(/stack other has no TableName output/) });
    expect(await failing('any', {})).toMatchObject({ code: 1, stderr: 'keys: set AWS_REGION to the region of the stack\n' });
  });
});

describe('the keys command as a program', () => {
  const root = fileURLToPath(new URL('../../..', import.meta.url));
  const tsx = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'bin/keys.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, PROOFLINE_STACK: '', ...env },
    });

  it('keeps keys in a DATA_DIR of the local runtime across runs, with exit code 1 for an unknown key', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'proofline-keys-'));
    try {
      const created = tsx(['create', '--account', 'cli-local', '--json'], { DATA_DIR: dataDir });
      expect(created.status, created.stderr).toBe(0);
      const printed = JSON.parse(created.stdout);
      expect(Object.keys(printed)).toEqual(['id', 'key', 'account', 'webhookSecret']);
      expect(created.stderr).toContain(`local data in ${dataDir}`);

      const listed = tsx(['list', '--json'], { DATA_DIR: dataDir });
      expect(listed.status, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).keys.map((k: { id: string }) => k.id)).toEqual([printed.id]);

      const unknown = tsx(['revoke', 'key_01h00000000000000000000000'], { DATA_DIR: dataDir });
      expect(unknown.status).toBe(1);
      expect(unknown.stderr).toMatch(/No key key_01h00000000000000000000000/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('prints its help and exits 0', () => {
    const run = tsx(['--help']);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: npm run keys');
  });

  it('exits 2 on a usage error', () => {
    const run = tsx(['create', '--role', 'root']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('--role must be one of');
  });
});
