/** The implementations of the content fixes (fix-catalogue/content.ts describes them), by fix id. */
import { paramOrThreshold, type Fix } from '../fix';
import { grayToK } from './gray-to-k';
import { overprintBlack } from './overprint-black';
import { richBlackTextToK } from './richblack-text';
import { spotToProcess } from './spot-to-process';
import { whiteKnockout } from './white-knockout';

export const CONTENT_FIX_IMPLEMENTATIONS: Readonly<Record<string, Fix>> = {
  'color.spot-to-process': (doc) => spotToProcess(doc),
  'color.gray-to-k': (doc) => grayToK(doc),
  'overprint.white-knockout': (doc) => whiteKnockout(doc),
  'overprint.black-text': (doc, ctx) => overprintBlack(doc, { maxTextPt: Number(ctx.params.maxTextPt), maxLinePt: Number(ctx.params.maxLinePt) }),
  'color.richblack-small-text-to-k': (doc, ctx) =>
    richBlackTextToK(doc, { maxTextPt: paramOrThreshold(ctx, 'maxTextPt', 'text.rich-black', 'min_size_pt'), minK: Number(ctx.params.minK) }),
};
