import { describe, expect, it } from 'vitest';
import { s3RequestClass } from '../../../../local/metering/s3-request-class';

describe('the S3 price class of a request', () => {
  it.each([
    ['PUT', '/proofline-files/jobs/j1/report.json', 'tier1', 'PutObject'],
    ['PUT', '/proofline-files/jobs/j1/copy.pdf', 'tier1', 'CopyObject'],
    ['PUT', '/proofline-files/jobs/j1/a.pdf?tagging', 'tier1', 'PutObjectTagging'],
    ['POST', '/proofline-files', 'tier1', 'a browser upload (presigned POST)'],
    ['POST', '/proofline-files/big.pdf?uploads', 'tier1', 'CreateMultipartUpload'],
    ['POST', '/proofline-files?delete', 'tier1', 'DeleteObjects, a POST'],
    ['GET', '/proofline-files?list-type=2&prefix=jobs%2F', 'tier1', 'ListObjectsV2'],
    ['GET', '/proofline-files/', 'tier1', 'ListObjects'],
    ['GET', '/proofline-files/big.pdf?uploadId=u1', 'tier1', 'ListParts'],
    ['GET', '/proofline-files/jobs/j1/a.pdf', 'tier2', 'GetObject'],
    ['GET', '/proofline-files/jobs/j1/a.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc', 'tier2', 'a presigned GET'],
    ['HEAD', '/proofline-files/jobs/j1/a.pdf', 'tier2', 'HeadObject'],
    ['GET', '/proofline-files?location', 'tier2', 'GetBucketLocation'],
    ['OPTIONS', '/proofline-files', 'tier2', 'a CORS preflight'],
    ['DELETE', '/proofline-files/jobs/j1/a.pdf', 'delete', 'DeleteObject'],
    ['DELETE', '/proofline-files/big.pdf?uploadId=u1', 'delete', 'AbortMultipartUpload'],
  ])('%s %s is %s (%s)', (method, url, expected) => {
    expect(s3RequestClass(method, url)).toBe(expected);
  });
});
