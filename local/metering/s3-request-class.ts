/**
 * Which of S3's request prices a request at the storage gateway is billed at
 * (https://aws.amazon.com/s3/pricing/, "Requests & data retrievals"):
 *
 * - tier1, "PUT, COPY, POST, LIST": PutObject, CopyObject (a PUT with
 *   x-amz-copy-source), UploadPart, PutObjectTagging and other PUTs; every
 *   POST (browser uploads, multipart creation and completion, and the
 *   multi-object delete DeleteObjects, counted here as the POST it is); the
 *   listings (ListObjects and ListObjectsV2, ListObjectVersions,
 *   ListMultipartUploads, ListParts);
 * - delete, free: DELETE requests (DeleteObject, AbortMultipartUpload);
 * - tier2, "GET, SELECT, and all other requests": GetObject, HeadObject and
 *   HeadBucket, other GETs of a bucket or object sub-resource, OPTIONS.
 *
 * Requests are path-style (`/bucket/key?query`), as the local endpoint is.
 */
export type S3RequestClass = 'tier1' | 'tier2' | 'delete';

/** Sub-resources of a bucket GET that make it a listing. */
const BUCKET_LISTINGS = ['list-type', 'versions', 'uploads'];
/** Sub-resources of a bucket GET that make it something else (GetBucketLocation, GetBucketCors, …). */
const BUCKET_OTHER = ['location', 'cors', 'acl', 'policy', 'tagging', 'lifecycle', 'versioning', 'website', 'logging', 'notification', 'encryption'];

export function s3RequestClass(method: string, url: string): S3RequestClass {
  const m = method.toUpperCase();
  if (m === 'DELETE') return 'delete';
  if (m === 'PUT' || m === 'POST') return 'tier1';
  if (m !== 'GET') return 'tier2';
  const [path = '/', rawQuery = ''] = url.split('?', 2);
  const query = new URLSearchParams(rawQuery);
  const hasKey = /^\/[^/]+\/.+/.test(path);
  if (hasKey) return query.has('uploadId') ? 'tier1' : 'tier2';
  if (BUCKET_LISTINGS.some((q) => query.has(q))) return 'tier1';
  if (BUCKET_OTHER.some((q) => query.has(q))) return 'tier2';
  // A bucket GET without a sub-resource is ListObjects; `GET /` is ListBuckets (tier 1 as well).
  return 'tier1';
}
