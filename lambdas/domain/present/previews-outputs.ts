/**
 * The entry a previews step adds to its `outputs`, beside the image artifacts
 * (docs/api.md §11 rule 6), as the clients written for the original service
 * read a preview: `{ kind: "previews", count, total, pages: [ { page, url,
 * width, height, mimeType } ] }`. `count` is the pages rendered, `total` the
 * pages in the file, `url` the presigned image: on reads only, never in the
 * webhook body (webhook-payload.ts says why).
 */
import type { StoredArtifact } from '../model';
import type { PreviewsStepResult } from '../step-results';

export interface PreviewPageEntry {
  page: number;
  url?: string;
  width: number | null;
  height: number | null;
  mimeType: string;
}

export interface PreviewsOutputsEntry {
  kind: 'previews';
  count: number;
  /** null for a result recorded before the page count was kept. */
  total: number | null;
  pages: PreviewPageEntry[];
}

/** The entry from a previews step's outputs (presented, with URLs, or plain) and its result. */
export function previewsOutputsEntry(outputs: readonly (StoredArtifact & { downloadUrl?: string })[], result: unknown): PreviewsOutputsEntry {
  const pages = outputs
    .filter((a) => a.role === 'preview' && typeof a.page === 'number')
    .sort((a, b) => a.page! - b.page!)
    .map((a) => ({
      page: a.page!,
      ...(a.downloadUrl !== undefined ? { url: a.downloadUrl } : {}),
      width: a.width ?? null,
      height: a.height ?? null,
      mimeType: a.mimeType,
    }));
  const total = (result as Partial<PreviewsStepResult> | null)?.totalPages;
  return { kind: 'previews', count: pages.length, total: typeof total === 'number' ? total : null, pages };
}
