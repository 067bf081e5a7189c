/**
 * Fonts for the font rules' tests, built around Liberation Sans (TrueType,
 * shipped by pdfjs-dist), and the profile fixtures they are put into.
 */
import { readFileSync } from 'node:fs';
import { PDFDict, PDFName, PDFString, type PDFContext, type PDFDocument, type PDFRef } from '@cantoo/pdf-lib';
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

/** A ToUnicode CMap with the given bfchar/bfrange sections. */
export const toUnicode = (ctx: PDFContext, entries: string) =>
  ctx.register(ctx.flateStream(`/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <00> <FF> endcodespacerange\n${entries}\nendcmap CMapName currentdict /CMap defineresource pop end end`));

/** A Type 0 font with a CIDFontType2 descendant around Liberation Sans (CIDs are glyph indices). */
export function type0(options: { encoding?: unknown; cidToGid?: boolean; systemInfo?: [string, string, number]; subset?: boolean; cidSet?: Uint8Array } = {}) {
  return (ctx: PDFContext): PDFRef => {
    const name = `${options.subset ? 'ABCDEF+' : ''}LiberationSans`;
    const fontFile = ctx.register(ctx.flateStream(TTF, { Length1: TTF.length }));
    const [reg, ord, sup] = options.systemInfo ?? ['Adobe', 'Identity', 0];
    const descriptor = ctx.obj({ Type: 'FontDescriptor', FontName: name, Flags: 4, FontBBox: [-203, -303, 1050, 910], ItalicAngle: 0, Ascent: 905, Descent: -212, CapHeight: 729, StemV: 80, FontFile2: fontFile } as never) as unknown as PDFDict;
    if (options.cidSet) descriptor.set(PDFName.of('CIDSet'), ctx.register(ctx.flateStream(options.cidSet)));
    const cidFont = ctx.obj({
      Type: 'Font',
      Subtype: 'CIDFontType2',
      BaseFont: name,
      CIDSystemInfo: ctx.obj({ Registry: PDFString.of(reg), Ordering: PDFString.of(ord), Supplement: sup } as never),
      FontDescriptor: ctx.register(descriptor),
      W: [gidOf('H'), [advance('H'), advance('I')]],
    } as never) as unknown as PDFDict;
    if (options.cidToGid !== false) cidFont.set(PDFName.of('CIDToGIDMap'), PDFName.of('Identity'));
    const encoding = options.encoding ?? PDFName.of('Identity-H');
    return ctx.register(ctx.obj({ Type: 'Font', Subtype: 'Type0', BaseFont: name, Encoding: encoding as never, DescendantFonts: [ctx.register(cidFont)], ToUnicode: toUnicode(ctx, '') } as never));
  };
}
const hex4 = (n: number) => n.toString(16).padStart(4, '0');
/** Page content showing HI in the Type 0 font F1 (two-byte codes that are glyph indices). */
export const HI = `BT /F1 24 Tf 72 700 Td <${hex4(gidOf('H'))}${hex4(gidOf('I'))}> Tj ET`;
