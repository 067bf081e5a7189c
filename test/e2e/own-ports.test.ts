/**
 * The local runtime's own ports are no way in (issue 16 items 5 and 6): the
 * storage stand-in's port answers only the storage gateway (it once served
 * and listed every account's files unsigned), and no job may name any of the
 * runtime's ports as a source or webhook, nor put credentials in a URL.
 */
import { describe, expect, it } from 'vitest';
import { api, expectErrorShape, waitForJob } from './support/client';
import { onePagePdfBase64 } from './support/files';
import { target } from './support/target';

describe.skipIf(!target().local)('the local runtime’s own ports', () => {
  it('the storage stand-in answers nobody but the gateway: unsigned listing and reading are refused', async () => {
    const created = await api('POST', '/jobs/preflight', { body: { sources: [{ file: await onePagePdfBase64() }] } });
    const done = await waitForJob(created.body.job.id);
    const key: string = done.tasks[0].originalArtifact.key;
    const bucket: string = done.tasks[0].originalArtifact.bucket;
    const storage = new URL(done.tasks[0].originalArtifact.downloadUrl);
    // Through the signing gateway, with the signature: served.
    expect((await fetch(done.tasks[0].originalArtifact.downloadUrl)).status).toBe(200);
    // The gateway itself, unsigned: refused.
    expect((await fetch(`${storage.origin}/${bucket}/${key}`)).status).toBe(403);
    // The stand-ins' own ports (s3rver, dynalite: the runtime lists them after the API's and the gateway's), unsigned.
    const [s3rverPort, dynalitePort] = target().ownPorts.slice(2);
    for (const path of [`/${bucket}/${key}`, `/${bucket}?list-type=2`, '/']) {
      const s3 = await fetch(`http://127.0.0.1:${s3rverPort}${path}`);
      const text = await s3.text();
      expect(s3.status, path).toBe(403);
      expect(text).not.toContain(key);
      expect(text).not.toContain('%PDF');
      const db = await (await fetch(`http://127.0.0.1:${dynalitePort}${path}`)).text();
      expect(db).not.toContain(key);
    }
  });

  it('no own port is accepted as a source URL or a webhook', async () => {
    expect(target().ownPorts.length).toBe(4);
    for (const port of target().ownPorts) {
      const source = await api('POST', '/jobs/preflight', { body: { sources: [{ url: `http://127.0.0.1:${port}/proofline-files/x.pdf` }] } });
      expectErrorShape(source, 400, 'validation_error');
      expect(source.body).toMatchObject({ param: 'sources[0].url' });
      expect(source.body.message).toMatch(/local runtime's own/);
      const hook = await api('POST', '/jobs/preflight', { body: { webhook: `http://localhost:${port}/hook`, sources: [{ file: await onePagePdfBase64() }] } });
      expectErrorShape(hook, 400, 'validation_error');
      expect(hook.body).toMatchObject({ param: 'webhook.url' });
    }
  });

  it('credentials in a source URL or webhook are refused and never echoed', async () => {
    const source = await api('POST', '/jobs/preflight', { body: { sources: [{ url: 'http://user:secret-pw@127.0.0.1:9/file.pdf' }] } });
    expectErrorShape(source, 400, 'validation_error');
    expect(source.body.message).toMatch(/credentials/);
    expect(JSON.stringify(source.body)).not.toContain('secret-pw');
    const hook = await api('POST', '/jobs/preflight', { body: { webhook: { url: 'http://user:secret-pw@127.0.0.1:9/hook' }, sources: [{ file: await onePagePdfBase64() }] } });
    expectErrorShape(hook, 400, 'validation_error');
    expect(JSON.stringify(hook.body)).not.toContain('secret-pw');
  });
});
