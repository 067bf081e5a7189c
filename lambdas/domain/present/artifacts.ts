/**
 * Stored artifacts as the contract shows them (docs/api.md §4): the stored facts
 * plus a presigned `downloadUrl` valid for `expiresIn` seconds, which downloads
 * under the artifact's own file name. The webhook payload uses the plain form,
 * without URLs.
 */
import type { StoredArtifact } from '../model';
import type { BlobStore } from '../ports';
import type { DownloadLink } from '../step-results';

/** What presenting needs: the blob store to presign with and the URL lifetime (contract: 3600 s). */
export interface PresentDeps {
  blobs: BlobStore;
  expiresIn: number;
}

/**
 * An artifact as the API shows it without a URL (webhook bodies). The same
 * fields as the stored record, copied one by one by plainArtifact() so nothing
 * else a record might carry ever reaches a client.
 */
export type PlainArtifact = StoredArtifact;

export interface PresentedArtifact extends PlainArtifact, DownloadLink {}

/** The artifact's fields in the contract's order, without URLs; optional ones only when known. */
export function plainArtifact(a: StoredArtifact): PlainArtifact {
  const out: PlainArtifact = {
    kind: a.kind,
    role: a.role,
    bucket: a.bucket,
    key: a.key,
    mimeType: a.mimeType,
    sizeBytes: a.sizeBytes,
    fileName: a.fileName,
  };
  if (a.page !== undefined && a.page !== null) out.page = a.page;
  if (a.width !== undefined && a.width !== null) out.width = a.width;
  if (a.height !== undefined && a.height !== null) out.height = a.height;
  return out;
}

/** A presigned download of a stored file, under its own file name. */
export async function downloadLink(a: Pick<StoredArtifact, 'key' | 'fileName'>, deps: PresentDeps): Promise<DownloadLink> {
  return { downloadUrl: await deps.blobs.presignGet(a.key, deps.expiresIn, a.fileName), expiresIn: deps.expiresIn };
}

export async function presentArtifact(a: StoredArtifact, deps: PresentDeps): Promise<PresentedArtifact> {
  return { ...plainArtifact(a), ...(await downloadLink(a, deps)) };
}

export async function presentArtifacts(list: StoredArtifact[], deps: PresentDeps): Promise<PresentedArtifact[]> {
  return Promise.all(list.map((a) => presentArtifact(a, deps)));
}
