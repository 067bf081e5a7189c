/**
 * Fonts for the font rules' tests, built around Liberation Sans (TrueType,
 * shipped by pdfjs-dist), and the profile fixtures they are put into.
 */
import { readFileSync } from 'node:fs';
import { PDFDict, PDFName, type PDFContext, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { validate } from '../../../../../lambdas/engine/validate/index';
import { readTrueType } from '../../../../../lambdas/engine/validate/fonts/truetype';
import { buildPdf, EMBEDDABLE_TTF_PATH, embedLiberationSans, mutatePdf, pdfaSpec, pdfuaSpec } from '../../../../support/pdf-fixtures';
import { tempFiles } from '../../temp-files';

export const TTF = readFileSync(EMBEDDABLE_TTF_PATH);
export const LIBERATION = readTrueType(TTF)!;
const unicodeCmap = LIBERATION.cmaps.find((c) => c.platform === 3 && c.encoding === 1)!;
/** Liberation Sans advance of a character, in 1000 units (as a dictionary should state it). */
export const advance = (ch: string): number => Math.round((LIBERATION.advance(unicodeCmap.lookup(ch.charCodeAt(0))!)! * 1000) / LIBERATION.unitsPerEm);
export const gidOf = (ch: string): number => unicodeCmap.lookup(ch.charCodeAt(0))!;
/** Widths of codes 32–126. */
export const WIDTHS = Array.from({ length: 95 }, (_, i) => advance(String.fromCharCode(32 + i)));

/** A simple TrueType font around Liberation Sans; `change` edits the font dictionary, `descriptor` its font descriptor. */
export function simpleTrueType(change?: (font: PDFDict, ctx: PDFContext) => void, descriptor?: (d: PDFDict, ctx: PDFContext) => void) {
  return (ctx: PDFContext): PDFRef => {
    const ref = embedLiberationSans(ctx, WIDTHS);
    const font = ctx.lookup(ref) as PDFDict;
    change?.(font, ctx);
    descriptor?.(font.lookup(PDFName.of('FontDescriptor')) as PDFDict, ctx);
    return ref;
  };
}

/** The generated fixture that meets every rule of the profile. */
export function specFor(profile: ValidateProfileCode) {
  if (profile === 'ua1') return pdfuaSpec(1);
  if (profile === 'ua2') return pdfuaSpec(2);
  const part = Number(profile[0]);
  const level = profile.slice(1).toUpperCase();
  return pdfaSpec(part, level || undefined);
}

/** The profile's fixture with font F1 replaced by `font(ctx)` and the page content by `content`; `extra` edits the document. */
export async function withFont(profile: ValidateProfileCode, font: (ctx: PDFContext, doc: PDFDocument) => PDFRef, content: string, extra?: (doc: PDFDocument) => void) {
  return mutatePdf(await buildPdf(specFor(profile)), (doc) => {
    const ctx = doc.context;
    const page = doc.getPage(0).node;
    const resources = page.lookup(PDFName.of('Resources')) as PDFDict;
    resources.set(PDFName.of('Font'), ctx.obj({ F1: font(ctx, doc) }));
    page.set(PDFName.of('Contents'), ctx.register(ctx.flateStream(content)));
    extra?.(doc);
  });
}

const files = tempFiles('fonts');

export async function failures(profile: ValidateProfileCode, bytes: Uint8Array) {
  const r = await validate({ path: files.write(bytes, 'pdf'), profiles: [profile] });
  return r.profiles[0]!.failures;
}
export const ids = async (profile: ValidateProfileCode, bytes: Uint8Array) => (await failures(profile, bytes)).map((f) => f.ruleId);

/** The failure of rule `id`, or undefined when it passed. */
export const failure = async (profile: ValidateProfileCode, bytes: Uint8Array, id: string) => (await failures(profile, bytes)).find((f) => f.ruleId === id);

/** Page content showing HI in font F1. */
export const TEXT = 'BT /F1 24 Tf 72 700 Td (HI) Tj ET';
