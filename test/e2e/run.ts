/**
 * `npm run test:e2e -- --base-url URL --key KEY [--admin-key KEY] [--other-key KEY] [--webhook-secret whsec_…]`
 *
 * Runs the black-box suite (test/e2e/*.test.ts) against any deployment: the
 * local runtime (`npm start`), LocalStack, or a stack on AWS (its ApiUrl output).
 * Without --base-url it starts the local runtime in-process, as `npm test` does.
 * Tests that need what only the local runtime allows (loopback sources and
 * webhook receivers, compressed timings) are skipped against other targets, and
 * vitest lists them as skipped.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    key: { type: 'string' },
    'admin-key': { type: 'string' },
    'other-key': { type: 'string' },
    'webhook-secret': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
  allowPositionals: true,
});

if (values.help) {
  console.log('usage: npm run test:e2e -- [--base-url URL --key KEY] [--admin-key KEY] [--other-key KEY] [--webhook-secret whsec_…]');
  process.exit(0);
}
if (values['base-url'] && !values.key) {
  console.error('--key is required with --base-url (a secret key of the target, e.g. from `npm run keys -- create --json`)');
  process.exit(2);
}

const env: NodeJS.ProcessEnv = { ...process.env };
const set = (name: string, v: string | undefined) => {
  if (v) env[name] = v;
};
set('E2E_BASE_URL', values['base-url']);
set('E2E_KEY', values.key);
set('E2E_ADMIN_KEY', values['admin-key']);
set('E2E_OTHER_KEY', values['other-key']);
set('E2E_WEBHOOK_SECRET', values['webhook-secret']);

const root = path.resolve(import.meta.dirname, '../..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const child = spawn(process.execPath, [vitest, 'run', '--config', 'test/vitest.config.ts', '--project', 'e2e'], { cwd: root, env, stdio: 'inherit' });
child.on('exit', (code) => process.exit(code ?? 1));
