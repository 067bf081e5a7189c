/**
 * The keys tool (docs/api.md §8, §10): issue, list and revoke secret keys.
 *
 *   npm run keys -- create [--account NAME] [--role standard|admin] [--test] [--json]
 *   npm run keys -- list [--account NAME] [--json]
 *   npm run keys -- revoke KEY_ID [--json]
 *   npm run keys -- retention --account NAME DAYS|default [--json]
 *
 * It works on the running local runtime's data (run it with the same DATA_DIR
 * and PORT as `npm start`) or, with `--stack NAME` or PROOFLINE_STACK, on a
 * deployed stack's table. Results go to stdout (with --json, exactly one JSON
 * document); everything else goes to stderr. Exit codes: 0 done, 1 failed,
 * 2 usage error.
 */
import '../lambdas/platform/polyfills';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Clock, IdSource, KeyStore } from '../lambdas/domain/ports';
import type { KeyRole } from '../lambdas/domain/model';
import { issueKey, isValidAccountId, KEY_ROLES, KeyRequestError, listKeys, revokeKey, rotateWebhookSecret, setAccountRetention, type KeySummary } from '../lambdas/domain/keys';
import { loadConfig } from '../lambdas/platform/config';

export const USAGE = `Usage: npm run keys -- <command> [options]

Commands:
  create [--account NAME] [--role standard|admin] [--test]
                      Issue a key. The account is created with its webhook
                      signing secret on its first key. Default account: local
                      (required with --stack). --test issues an sk_test_ key.
  list [--account NAME]
                      List keys (never their secrets), of one account or all.
  revoke KEY_ID       Revoke a key; it stops working within 60 seconds.
  retention --account NAME DAYS|default
                      Keep the account's new jobs and their files DAYS days
                      (1 to 3650) instead of the deployment's period;
                      "default" goes back to the deployment's.
  webhook-secret --account NAME
                      Give the account a new webhook signing secret and print
                      it; webhooks sent from then on are signed with it only.

Options:
  --json              Print the result as JSON on stdout.
  --stack NAME        Work on a deployed stack (env PROOFLINE_STACK; region from AWS_REGION).
                      Without it: the local runtime's data in DATA_DIR (default .local/).
  -h, --help          Show this help.
`;

export interface KeysTarget {
  keys: KeyStore;
  ids: IdSource;
  clock: Clock;
  /** Where the keys live, for messages on stderr. */
  description: string;
  close(): Promise<void>;
}

export type OpenTarget = (where: { stack?: string; dataDir: string; env: NodeJS.ProcessEnv }) => Promise<KeysTarget>;

export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
}

class UsageError extends Error {}

/** Opens the local runtime's data or a deployed stack's table. Loaded lazily: each target brings its own SDK. */
export const openTarget: OpenTarget = async ({ stack, dataDir, env }) => {
  const { createAwsServices } = await import('../lambdas/adapters/aws');
  if (stack) {
    const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
    if (!region) throw new KeyRequestError('set AWS_REGION to the region of the stack');
    const tableName = await tableNameOfStack(stack, region);
    const services = createAwsServices(loadConfig({ ...env, AWS_REGION: region, TABLE_NAME: tableName }));
    return { ...services, description: `stack ${stack} (table ${tableName}, ${region})`, close: async () => {} };
  }
  const { connectToLocalData } = await import('../local/connect');
  const local = await connectToLocalData(dataDir);
  const services = createAwsServices(local.config);
  const how = local.viaRunningRuntime ? 'through the running local runtime' : 'opened directly; no local runtime is running';
  return { ...services, description: `local data in ${dataDir} (${how})`, close: async () => local.close() };
};

/** The table a deployed stack uses, from its outputs (the output named TableName). */
async function tableNameOfStack(stackName: string, region: string): Promise<string> {
  const { CloudFormationClient, DescribeStacksCommand } = await import('@aws-sdk/client-cloudformation');
  const client = new CloudFormationClient({ region });
  try {
    const out = await client.send(new DescribeStacksCommand({ StackName: stackName }));
    const outputs = out.Stacks?.[0]?.Outputs ?? [];
    // CDK names an output after its construct path; prefer the exact key, accept a prefixed one.
    const output = outputs.find((o) => o.OutputKey === 'TableName') ?? outputs.find((o) => /TableName/.test(o.OutputKey ?? ''));
    if (!output?.OutputValue) throw new KeyRequestError(`stack ${stackName} has no TableName output; is it a Proofline stack?`);
    return output.OutputValue;
  } catch (error) {
    if (error instanceof Error && error.name === 'ValidationError' && /does not exist/.test(error.message)) {
      throw new KeyRequestError(`no stack ${stackName} in ${region}`);
    }
    throw error;
  } finally {
    client.destroy();
  }
}

function parse(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        account: { type: 'string' },
        role: { type: 'string' },
        test: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        stack: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function table(keys: KeySummary[]): string {
  if (keys.length === 0) return 'No keys.\n';
  const rows = [['ID', 'ACCOUNT', 'ROLE', 'PREFIX', 'CREATED', 'REVOKED'], ...keys.map((k) => [k.id, k.account, k.role, `${k.prefix}…`, k.createdAt, k.revokedAt ?? '-'])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()).join('\n') + '\n';
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Runs one command; returns the exit code. Never calls process.exit (tests call it). */
export async function runKeysCli(argv: string[], io: CliIo, open: OpenTarget = openTarget): Promise<number> {
  let target: KeysTarget | undefined;
  try {
    const { values, positionals } = parse(argv);
    const [command, ...rest] = positionals;
    if (values.help || command === 'help') {
      io.stdout(USAGE);
      return 0;
    }
    if (!command) throw new UsageError('a command is required: create, list, revoke, retention or webhook-secret');
    if (!['create', 'list', 'revoke', 'retention', 'webhook-secret'].includes(command)) throw new UsageError(`unknown command "${command}"`);
    const takesOne = command === 'revoke' || command === 'retention';
    if (!takesOne && rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    if (command === 'revoke' && rest.length !== 1) throw new UsageError('revoke needs exactly one KEY_ID');
    if (command === 'retention' && (rest.length !== 1 || values.account === undefined)) throw new UsageError('retention needs --account NAME and DAYS or "default"');
    if (command === 'webhook-secret' && values.account === undefined) throw new UsageError('webhook-secret needs --account NAME');
    const retentionDays = command === 'retention' ? parseRetentionDays(rest[0]!) : null;
    if (values.account !== undefined && !isValidAccountId(values.account)) {
      throw new UsageError(`"${values.account}" is not a valid account name: 1 to 63 lower-case letters, digits, "_" or "-", starting with a letter or digit`);
    }
    if (values.role !== undefined && !KEY_ROLES.includes(values.role as KeyRole)) {
      throw new UsageError(`--role must be one of ${KEY_ROLES.join(', ')}`);
    }
    if (command !== 'create' && (values.role !== undefined || values.test)) throw new UsageError('--role and --test go with create only');
    if (command === 'revoke' && values.account !== undefined) throw new UsageError('--account does not go with revoke');
    const stack = values.stack ?? (io.env.PROOFLINE_STACK || undefined);
    if (command === 'create' && stack && values.account === undefined) throw new UsageError('--account is required with --stack');

    const dataDir = resolve(io.env.DATA_DIR || '.local');
    target = await open({ stack, dataDir, env: io.env });
    io.stderr(`Using ${target.description}.\n`);

    if (command === 'create') {
      const issued = await issueKey(target.keys, target.ids, target.clock, {
        accountId: values.account ?? 'local',
        role: (values.role as KeyRole | undefined) ?? 'standard',
        mode: values.test ? 'test' : 'live',
      });
      if (values.json) io.stdout(json({ id: issued.id, key: issued.key, account: issued.account, webhookSecret: issued.webhookSecret }));
      else {
        io.stdout(
          `Created ${issued.id} for account ${issued.account} (role ${issued.role}).\n` +
            `Secret key (shown only now): ${issued.key}\n` +
            `Webhook signing secret of account ${issued.account}: ${issued.webhookSecret}\n`,
        );
      }
      return 0;
    }
    if (command === 'list') {
      const keys = await listKeys(target.keys, values.account);
      io.stdout(values.json ? json({ keys }) : table(keys));
      return 0;
    }
    if (command === 'retention') {
      await setAccountRetention(target.keys, values.account!, retentionDays);
      const period = retentionDays === null ? "the deployment's period" : `${retentionDays} days`;
      io.stdout(values.json ? json({ account: values.account, retentionDays }) : `New jobs of account ${values.account} are kept ${period}.\n`);
      return 0;
    }
    if (command === 'webhook-secret') {
      const webhookSecret = await rotateWebhookSecret(target.keys, values.account!);
      io.stdout(values.json ? json({ account: values.account, webhookSecret }) : `New webhook signing secret of account ${values.account}: ${webhookSecret}\nWebhooks sent from now on are signed with it only.\n`);
      return 0;
    }
    const keyId = rest[0]!;
    if (!(await revokeKey(target.keys, target.clock, keyId))) {
      io.stderr(`No key ${keyId}${keyId.startsWith('key_') ? '' : ' (key ids look like key_01h…)'}; see "npm run keys -- list".\n`);
      return 1;
    }
    io.stdout(values.json ? json({ id: keyId, revoked: true }) : `Revoked ${keyId}; it stops working within 60 seconds.\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`keys: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    io.stderr(`keys: ${error instanceof KeyRequestError ? error.message : describeFailure(error)}\n`);
    return 1;
  } finally {
    await target?.close().catch(() => {});
  }
}

/** DAYS as given to `retention`: a whole number, or `default` (null: the deployment's period). */
function parseRetentionDays(raw: string): number | null {
  if (raw === 'default') return null;
  if (!/^[0-9]+$/.test(raw)) throw new UsageError(`retention takes a whole number of days or "default", not "${raw}"`);
  return Number(raw);
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const name = error.name;
  if (name === 'CredentialsProviderError') return 'no AWS credentials found; configure a profile or set AWS_* variables';
  if (name === 'ResourceNotFoundException') return `the table was not found (${error.message})`;
  return error.message || name;
}

const isMain = (() => {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
})();

if (isMain) {
  const io: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t), env: process.env };
  runKeysCli(process.argv.slice(2), io).then(
    (code) => {
      // SDK clients keep sockets open; the tool is done once its output is flushed.
      process.stdout.write('', () => process.exit(code));
    },
    (error: unknown) => {
      process.stderr.write(`keys: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
