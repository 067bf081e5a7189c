/**
 * The parameters of the optimize step (`params: { pdf?: {…}, raster?: {…} }`),
 * as a zod schema, with their defaults and descriptions as data: GET /profiles
 * lists OPTIMIZE_PARAMS under `optimize`, and the step's catalogue entry takes
 * optimizeParams and OPTIMIZE_DEFAULTS.
 *
 * Written like the other steps' parameters (step-definitions/catalogue.ts):
 * open objects, so a client may send fields we do not use, with the fields we
 * do use checked, so a typo in a value is a 400 rather than a surprise.
 *
 * Imports nothing but zod, so the API's handlers can load it without pdf-lib
 * or sharp.
 */
import { z } from 'zod';

export const PDF_PRESETS = ['print', 'web'] as const;
export type PdfPreset = (typeof PDF_PRESETS)[number];

/** The image resolution each preset brings images to (pixels per inch where they are placed). */
export const PRESET_PPI: Readonly<Record<PdfPreset, number>> = { print: 300, web: 150 };

/** Images are downsampled only above this multiple of maxImagePpi (unless downsampleAbovePpi says otherwise), as Acrobat and Ghostscript do by default. */
export const DOWNSAMPLE_THRESHOLD_FACTOR = 1.5;

const pdfParams = z.looseObject({
  preset: z.enum(PDF_PRESETS).optional(),
  maxImagePpi: z.number().min(72).max(2400).optional(),
  downsampleAbovePpi: z.number().min(72).max(4800).optional(),
  downsample: z.boolean().optional(),
  jpegQuality: z.number().int().min(1).max(100).optional(),
  recompress: z.boolean().optional(),
  flateLevel: z.number().int().min(1).max(9).optional(),
  objectStreams: z.boolean().optional(),
  dedupe: z.boolean().optional(),
  dropUnused: z.boolean().optional(),
  linearize: z.boolean().optional(),
});

const rasterParams = z.looseObject({
  quality: z.number().int().min(1).max(100).optional(),
  maxEdgePx: z.number().int().min(16).max(65535).optional(),
  stripMetadata: z.boolean().optional(),
  keepIcc: z.boolean().optional(),
});

/** The optimize step's `params`. */
export const optimizeParams = z.looseObject({
  pdf: pdfParams.optional(),
  raster: rasterParams.optional(),
});

export type OptimizeParams = z.infer<typeof optimizeParams>;
export type PdfOptimizeParams = z.infer<typeof pdfParams>;
export type RasterOptimizeParams = z.infer<typeof rasterParams>;

/** The parameters with every default filled in (maxImagePpi and downsampleAbovePpi follow the preset). */
export interface ResolvedPdfParams {
  preset: PdfPreset;
  maxImagePpi: number;
  downsampleAbovePpi: number;
  downsample: boolean;
  jpegQuality: number;
  recompress: boolean;
  flateLevel: number;
  objectStreams: boolean;
  dedupe: boolean;
  dropUnused: boolean;
  linearize: boolean;
}

export interface ResolvedRasterParams {
  quality: number;
  /** Null: no resizing. */
  maxEdgePx: number | null;
  stripMetadata: boolean;
  keepIcc: boolean;
}

/** The defaults, as GET /profiles shows them (maxImagePpi and downsampleAbovePpi: those of the print preset). */
export const OPTIMIZE_DEFAULTS = {
  pdf: {
    preset: 'print',
    maxImagePpi: PRESET_PPI.print,
    downsampleAbovePpi: PRESET_PPI.print * DOWNSAMPLE_THRESHOLD_FACTOR,
    downsample: true,
    jpegQuality: 90,
    recompress: true,
    flateLevel: 9,
    objectStreams: true,
    dedupe: true,
    dropUnused: true,
    linearize: false,
  },
  raster: { quality: 90, maxEdgePx: null, stripMetadata: true, keepIcc: true },
} as const satisfies { pdf: ResolvedPdfParams; raster: ResolvedRasterParams };

export interface OptimizeParamInfo {
  /** `pdf.maxImagePpi`. */
  name: string;
  type: 'number' | 'boolean' | 'string';
  default: number | boolean | string | null;
  values?: readonly string[];
  min?: number;
  max?: number;
  description: string;
}

/** Every parameter with its default and what it does, for GET /profiles and the OpenAPI document. */
export const OPTIMIZE_PARAMS: readonly OptimizeParamInfo[] = [
  { name: 'pdf.preset', type: 'string', values: PDF_PRESETS, default: 'print', description: 'print keeps images up to 300 ppi where they are placed; web up to 150 ppi. Sets the defaults of maxImagePpi and downsampleAbovePpi.' },
  { name: 'pdf.maxImagePpi', type: 'number', default: PRESET_PPI.print, min: 72, max: 2400, description: 'Resolution (pixels per inch at an image\'s largest placement) downsampled images are brought to; default 300 (print) or 150 (web).' },
  { name: 'pdf.downsampleAbovePpi', type: 'number', default: PRESET_PPI.print * DOWNSAMPLE_THRESHOLD_FACTOR, min: 72, max: 4800, description: 'Only images above this resolution are downsampled (never below maxImagePpi); default 1.5 × maxImagePpi, so an image barely above the target is not resampled for a few bytes.' },
  { name: 'pdf.downsample', type: 'boolean', default: true, description: 'Downsample images above downsampleAbovePpi to maxImagePpi (images.downsample). JPEG images stay JPEG, others are compressed losslessly; JBIG2, JPEG 2000, CCITT, stencil masks, Indexed and 16-bit images are left as they are.' },
  { name: 'pdf.jpegQuality', type: 'number', default: 90, min: 1, max: 100, description: 'JPEG quality of images that were JPEG and are downsampled. JPEG images that are not downsampled are never re-encoded.' },
  { name: 'pdf.recompress', type: 'boolean', default: true, description: 'Compress streams losslessly again with Flate at flateLevel, and uncompressed or LZW, ASCII85, ASCIIHex and RunLength streams with Flate, where the result is smaller (streams.recompress). The XMP metadata stream stays uncompressed when it is.' },
  { name: 'pdf.flateLevel', type: 'number', default: 9, min: 1, max: 9, description: 'zlib compression level of recompressed streams and object streams.' },
  { name: 'pdf.objectStreams', type: 'boolean', default: true, description: 'Pack objects other than streams into compressed object streams with a cross-reference stream (file.object-streams; PDF 1.5, the header is raised to 1.5 when lower). Not done for files claiming PDF/A-1 or PDF/X-1a or X-3, which forbid them.' },
  { name: 'pdf.dedupe', type: 'boolean', default: true, description: 'Merge identical streams (images, fonts, forms, content) and identical font, font descriptor, encoding and graphics state dictionaries into one object each (objects.dedupe).' },
  { name: 'pdf.dropUnused', type: 'boolean', default: true, description: 'Leave out objects nothing in the document refers to (objects.drop-unused).' },
  { name: 'pdf.linearize', type: 'boolean', default: false, description: 'Linearize the file for fast web view (file.linearize): the first page and what it uses come first, with hint tables that let a viewer fetch any other page on its own. With objectStreams, objects after the first page are packed in object streams. Not done for a file without pages.' },
  { name: 'raster.quality', type: 'number', default: 90, min: 1, max: 100, description: 'Quality of JPEG and lossy WebP files written again (raster.reencode); PNG, TIFF and lossless WebP are written again losslessly. The new file is kept only when smaller.' },
  { name: 'raster.maxEdgePx', type: 'number', default: null, min: 16, max: 65535, description: 'Longest edge in pixels: larger images are resized to fit it (raster.resize). Default: no resizing.' },
  { name: 'raster.stripMetadata', type: 'boolean', default: true, description: 'Leave out EXIF, XMP and IPTC metadata (raster.strip-metadata); the orientation is applied to the pixels first and the resolution (ppi) is kept.' },
  { name: 'raster.keepIcc', type: 'boolean', default: true, description: 'Keep the embedded ICC profile as it is (colours are never converted). When false the profile is left out and the pixels converted to sRGB.' },
];

/** The PDF parameters with defaults filled in; maxImagePpi follows the preset, downsampleAbovePpi follows maxImagePpi. */
export function resolvePdfParams(p: PdfOptimizeParams = {}): ResolvedPdfParams {
  const d = OPTIMIZE_DEFAULTS.pdf;
  const preset = p.preset ?? d.preset;
  const maxImagePpi = p.maxImagePpi ?? PRESET_PPI[preset];
  return {
    preset,
    maxImagePpi,
    // Never below the target: images between the two would only be reported as already at their size.
    downsampleAbovePpi: Math.max(maxImagePpi, p.downsampleAbovePpi ?? maxImagePpi * DOWNSAMPLE_THRESHOLD_FACTOR),
    downsample: p.downsample ?? d.downsample,
    jpegQuality: p.jpegQuality ?? d.jpegQuality,
    recompress: p.recompress ?? d.recompress,
    flateLevel: p.flateLevel ?? d.flateLevel,
    objectStreams: p.objectStreams ?? d.objectStreams,
    dedupe: p.dedupe ?? d.dedupe,
    dropUnused: p.dropUnused ?? d.dropUnused,
    linearize: p.linearize ?? d.linearize,
  };
}

export function resolveRasterParams(p: RasterOptimizeParams = {}): ResolvedRasterParams {
  const d = OPTIMIZE_DEFAULTS.raster;
  return {
    quality: p.quality ?? d.quality,
    maxEdgePx: p.maxEdgePx ?? d.maxEdgePx,
    stripMetadata: p.stripMetadata ?? d.stripMetadata,
    keepIcc: p.keepIcc ?? d.keepIcc,
  };
}
