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

export interface PreviewOutcome {
  images: PreviewImage[];
  failures: { page: number; reason: string }[];
  /** The pages selected for rendering (delivered or failed). */
  pages: number[];
}
