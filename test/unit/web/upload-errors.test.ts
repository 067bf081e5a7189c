/** web/src/upload-errors.ts: storage's refusals and a broken connection, as shop staff read them. */
import { describe, expect, it } from 'vitest';
import { NETWORK_ERROR, storageRefusal } from '../../../web/src/upload-errors';

const s3Error = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>R</RequestId></Error>`;

describe("an upload's errors", () => {
  it('says a file larger than announced is too large', () => {
    expect(storageRefusal(400, s3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size'))).toBe(
      'Too large: storage refused the file, it is larger than the upload allows.',
    );
  });

  it('says an expired form is to be retried', () => {
    expect(storageRefusal(403, s3Error('AccessDenied', 'Invalid according to Policy: Policy expired.'))).toBe('The upload form expired before the file was sent. Retry.');
  });

  it("gives any other refusal with storage's code and message, or the status when the body says nothing", () => {
    expect(storageRefusal(403, s3Error('SignatureDoesNotMatch', 'The request signature we calculated does not match'))).toBe(
      'Storage refused the file (SignatureDoesNotMatch): The request signature we calculated does not match',
    );
    expect(storageRefusal(502, '')).toBe('Storage refused the file (HTTP 502).');
  });

  it('says a broken connection is a network error worth retrying', () => {
    expect(NETWORK_ERROR).toMatch(/^Network error: .*retry\.$/);
  });
});
