/** What the preview renderers hand back. */
export interface PreviewImage {
  role: 'preview' | 'thumbnail';
  page: number;
  path: string;
  mimeType: string;
  width: number;
  height: number;
  sizeBytes: number;
}

/** A page that was requested but not delivered, and why. */
export interface PageFailureNote {
  page: number;
  reason: string;
}

export interface PreviewOutcome {
  images: PreviewImage[];
  failures: PageFailureNote[];
  /** The pages selected for rendering (delivered or failed). */
  pages: number[];
  /** How many pages the file has. */
  totalPages: number;
}

/** Part of a large selection, rendered on its own (in the cloud, by its own invocation). */
export interface PageBatch {
  /** 0-based position in the plan. */
  index: number;
  pages: number[];
  /** Whether this batch also renders the thumbnail (of page 1). */
  thumbnail: boolean;
}
