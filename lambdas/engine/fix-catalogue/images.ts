/** Fixes of image data (catalogue entries; implementations in autofix/images/). */
import { fix, type FixInfo } from './types';

export const IMAGE_FIXES: FixInfo[] = [
  fix({
    id: 'images.downsample',
    name: 'Downsample high-resolution images',
    description:
      'Resamples image XObjects whose effective resolution where they are placed (the lower of their horizontal and vertical ppi, as the images.resolution checks measure it; an image placed more than once counts at its largest placement) is above thresholdPpi down to ppi, so the file carries no pixels print cannot use. JPEG images stay JPEG (at quality), others become Flate-compressed; the colour space, ICC profile included, is kept, and a soft mask is resampled with its image. Only 8-bit gray, RGB, CMYK, ICC-based, CIE-based and Separation images are changed: JBIG2, JPEG 2000, CCITT, Indexed, 16-bit and other bit depths, stencil masks, images with a Decode array or a colour-key mask, and inline images are left, and the detail counts them. Fine detail beyond ppi is lost, which is the point.',
    resolves: [],
    params: [
      { name: 'ppi', type: 'number', default: 300, min: 72, max: 1200, description: 'Resolution (pixels per inch where the image is placed) the images are brought to.' },
      { name: 'thresholdPpi', type: 'number', default: 450, min: 72, max: 2400, description: 'Only images above this effective resolution are downsampled; at least ppi (a lower value counts as ppi).' },
      { name: 'quality', type: 'number', default: 85, min: 1, max: 100, description: 'JPEG quality (1–100) for images that were JPEG.' },
    ],
    appearance: 'intended',
    output: 'whole-file',
  }),
];
