/**
 * Limits for decoding image files with sharp, shared by preflight and previews:
 * an image larger than this would not fit a worker's memory once decoded.
 */
export const MAX_RASTER_PIXELS = 500_000_000;
