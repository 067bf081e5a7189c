/**
 * Helpers for the standards fixes' tests: run a fix through the autofix engine
 * (or directly with a fixed clock), validate and preflight the result, render
 * page 1 to raw pixels and extract its text, and build defects the shared
 * builder has no option for.
 */
import { readFileSync } from 'node:fs';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, type PDFRawStream, type PDFRef, PDFStream, PDFString, StandardFonts } from '@cantoo/pdf-lib';
import { expect } from 'vitest';
import type { OrderContext } from '../../../../../lambdas/domain/model';
import type { FixOutcome } from '../../../../../lambdas/engine/autofix/fix';
import { autofix } from '../../../../../lambdas/engine/autofix/index';
import { openPdfBytes, openPdfFile } from '../../../../../lambdas/engine/core/load-pdf';
import { preflight } from '../../../../../lambdas/engine/preflight/index';
import { validate } from '../../../../../lambdas/engine/validate/index';
import type { ValidateProfileCode } from '../../../../../step-definitions/catalogue';
import { tempFiles } from '../../temp-files';
import { embedLiberationSans } from '../../../../support/pdf-fixtures';
import { differingShare, pageTexts, pixelAt, previewRasters } from '../fixtures-common';

export const files = tempFiles('autofix-standards');

/** A fixed clock: 2024-05-06 07:08:09 UTC. */
export const FIXED_NOW = new Date(Date.UTC(2024, 4, 6, 7, 8, 9));

/** Runs fixes through the engine; returns the fixed file's path (the input's when nothing changed). */
export async function runFixes(bytes: Uint8Array, items: string[], opts: { fixParams?: Record<string, unknown>; context?: OrderContext | null; profileId?: string } = {}) {
  const path = files.write(bytes, 'pdf');
  const outPath = `${path}.fixed.pdf`;
  const result = await autofix({ path, outPath, items, recommended: null, profileId: opts.profileId ?? 'default', context: opts.context ?? null, fixParams: opts.fixParams ?? null });
  return { path, outPath: result.changed ? outPath : path, result };
}

/** Opens bytes, applies a fix function directly, saves as the engine does; returns the outcome and the saved bytes. */
export async function applyDirect(bytes: Uint8Array, fix: (doc: PDFDocument) => FixOutcome | Promise<FixOutcome>) {
  const { doc } = await openPdfBytes(bytes);
  const outcome = await fix(doc);
  const saved = await doc.save({ useObjectStreams: false, updateFieldAppearances: false });
  return { outcome, bytes: saved, path: files.write(saved, 'pdf') };
}

export async function failedRules(path: string, profile: ValidateProfileCode): Promise<string[]> {
  const r = await validate({ path, profiles: [profile] });
  return r.profiles.flatMap((p) => p.failures.map((f) => f.ruleId));
}

export async function compliant(path: string, profile: ValidateProfileCode): Promise<boolean> {
  return (await validate({ path, profiles: [profile] })).compliant;
}

export async function preflightIds(path: string, profileId: string, context: OrderContext | null = null): Promise<string[]> {
  const r = await preflight({ path, fileType: 'pdf', profileId, context });
  return r.report.findings.map((f) => f.checkId);
}

let renderN = 0;
/** Page 1 at 72 dpi as raw RGB pixels. */
export async function pixelsOf(path: string): Promise<{ data: Uint8Array; width: number; height: number }> {
  const [page] = await previewRasters(path, files.path(`render${++renderN}`), { pages: '1' });
  expect(page, 'page 1 rendered').toBeDefined();
  return page!;
}

/** Asserts two files render page 1 alike: the same size, and no channel differing by more than `tolerance` on more than 0.1 % of the pixels. */
export async function expectSameRendering(before: string, after: string, tolerance = 8): Promise<void> {
  const [a, b] = await Promise.all([pixelsOf(before), pixelsOf(after)]);
  expect([b.width, b.height]).toEqual([a.width, a.height]);
  expect(differingShare(a, b, tolerance)).toBeLessThan(0.001);
}

/** The text of page 1 as pdfjs extracts it. */
export async function textOf(path: string): Promise<string> {
  return (await pageTexts(new Uint8Array(readFileSync(path))))[0] ?? '';
}

/** Re-opens a file with the engine's loader (throws if it does not load). */
export async function reopen(path: string) {
  return (await openPdfFile(path)).doc;
}

/** The Info dictionary's text entries and names (as text). */
export function infoOf(doc: PDFDocument): Record<string, string> {
  const info = doc.context.lookup(doc.context.trailerInfo.Info);
  const out: Record<string, string> = {};
  if (!(info instanceof PDFDict)) return out;
  for (const [k, v] of info.entries()) {
    const value = v instanceof PDFName ? v.decodeText() : 'decodeText' in v ? (v as PDFString).decodeText() : v.toString();
    out[k.decodeText()] = value;
  }
  return out;
}

/** The catalog's XMP packet as text. */
export function xmpText(doc: PDFDocument): string {
  const ref = doc.catalog.get(PDFName.of('Metadata'));
  const stream = doc.context.lookup(ref);
  return stream && 'getContents' in stream ? new TextDecoder().decode((stream as { getContents(): Uint8Array }).getContents()) : '';
}

/** Edits a saved PDF's objects and saves again (classic xref, metadata untouched). */
export async function edit(bytes: Uint8Array, change: (doc: PDFDocument) => void | Promise<void>): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  await change(doc);
  return doc.save({ useObjectStreams: false });
}

/** Sets Info entries (strings, or names when given as `/Name`). */
export function setInfo(doc: PDFDocument, entries: Record<string, string>): void {
  const ctx = doc.context;
  let info = ctx.lookup(ctx.trailerInfo.Info);
  if (!(info instanceof PDFDict)) {
    info = ctx.obj({});
    ctx.trailerInfo.Info = ctx.register(info as PDFDict);
  }
  for (const [k, v] of Object.entries(entries)) (info as PDFDict).set(PDFName.of(k), v.startsWith('/') ? PDFName.of(v.slice(1)) : PDFString.of(v));
}

/** A stand-in ICC profile: a valid 128-byte header (class, colour space, version) and an empty tag table; the fixes read only the header. */
export function iccHeaderOnly(deviceClass: string, colourSpace: string, major = 2): Uint8Array {
  const out = new Uint8Array(132);
  const view = new DataView(out.buffer);
  view.setUint32(0, 132);
  out[8] = major;
  out[9] = 0x10;
  const put = (at: number, s: string) => [...s].forEach((c, i) => (out[at + i] = c.charCodeAt(0)));
  put(12, deviceClass);
  put(16, colourSpace);
  put(20, 'Lab ');
  put(36, 'acsp');
  return out;
}

/** Sets an annotation flag value on every annotation of page 1. */
export function setAnnotationFlags(doc: PDFDocument, flags: number | null): void {
  const annots = doc.getPage(0).node.lookup(PDFName.of('Annots'));
  if (!annots || !('size' in annots)) return;
  const arr = annots as unknown as { size(): number; lookup(i: number): unknown };
  for (let i = 0; i < arr.size(); i++) {
    const a = arr.lookup(i);
    if (!(a instanceof PDFDict)) continue;
    if (flags === null) a.delete(PDFName.of('F'));
    else a.set(PDFName.of('F'), PDFNumber.of(flags));
  }
}

/** Adds annotations (dictionaries from literals; `P` set to page 1) to page 1; returns their references. */
export function addAnnotations(doc: PDFDocument, annots: Record<string, unknown>[]): PDFRef[] {
  const ctx = doc.context;
  const page = doc.getPage(0);
  const refs = annots.map((a) => ctx.register(ctx.obj({ Type: 'Annot', F: 4, P: page.ref, ...a } as never)));
  const existing = page.node.lookup(PDFName.of('Annots'));
  if (existing instanceof PDFArray) refs.forEach((r) => existing.push(r));
  else page.node.set(PDFName.of('Annots'), ctx.obj(refs));
  return refs;
}

/**
 * Adds an interactive form whose fields are the given widgets (each a widget
 * merged with its field), with default resources naming Helvetica (not
 * embedded) as /Helv and, with `embeddedFont`, Liberation Sans (embedded
 * whole) as /LiSa.
 */
export async function addForm(doc: PDFDocument, widgets: Record<string, unknown>[], opts: { embeddedFont?: boolean; da?: string } = {}): Promise<PDFRef[]> {
  const ctx = doc.context;
  const fonts: Record<string, PDFRef> = { Helv: ctx.register(ctx.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' })) };
  if (opts.embeddedFont) {
    const scratch = await PDFDocument.create();
    const helv = await scratch.embedFont(StandardFonts.Helvetica);
    const widths = Array.from({ length: 95 }, (_, i) => Math.round(helv.widthOfTextAtSize(String.fromCharCode(32 + i), 1000)));
    fonts.LiSa = embedLiberationSans(ctx, widths);
  }
  const refs = addAnnotations(doc, widgets.map((w) => ({ Subtype: 'Widget', ...w })));
  doc.catalog.set(PDFName.of('AcroForm'), ctx.obj({ Fields: refs, DR: { Font: fonts }, DA: PDFString.of(opts.da ?? '/Helv 0 Tf 0 g') }));
  return refs;
}

/** The annotation dictionaries of page 1, in order. */
export function annotationsOf(doc: PDFDocument): PDFDict[] {
  const annots = doc.getPage(0).node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return [];
  return annots.asArray().map((a) => doc.context.lookup(a)).filter((a): a is PDFDict => a instanceof PDFDict);
}

/** The decoded content of an annotation's normal appearance (a state's, when N is a state dictionary). */
export function appearanceText(doc: PDFDocument, annot: PDFDict, state?: string): string {
  const ap = annot.lookup(PDFName.of('AP'));
  if (!(ap instanceof PDFDict)) return '';
  let n = ap.lookup(PDFName.of('N'));
  if (state !== undefined && n instanceof PDFDict) n = n.lookup(PDFName.of(state));
  if (!(n instanceof PDFStream)) return '';
  return new TextDecoder().decode(decodePDFRawStream(n as PDFRawStream).decode());
}

/** Share of pixels inside a rectangle of page 1 (PDF points, rendered at 72 dpi) that are not white. */
export async function inkShare(path: string, rect: [number, number, number, number]): Promise<number> {
  const img = await pixelsOf(path);
  let ink = 0;
  let all = 0;
  for (let y = Math.ceil(rect[1]); y < Math.floor(rect[3]); y++) {
    for (let x = Math.ceil(rect[0]); x < Math.floor(rect[2]); x++) {
      const [r, g, b] = pixelAt(img, x + 0.5, y + 0.5);
      all++;
      if (r < 235 || g < 235 || b < 235) ink++;
    }
  }
  return all ? ink / all : 0;
}

/**
 * The file with everything before its first object replaced by `head` (a
 * header line and comment of our choosing), the cross-reference offsets and
 * startxref moved to match. For a file pdf-lib wrote with a classic
 * cross-reference table.
 */
export function withHead(bytes: Uint8Array, head: string): Uint8Array {
  const text = Buffer.from(bytes).toString('latin1');
  const first = /\d+ \d+ obj\b/.exec(text);
  expect(first, 'an object').not.toBeNull();
  const delta = head.length - first!.index;
  const xref = text.lastIndexOf('\nxref\n');
  const shift = (s: string) => String(Number(s) + delta).padStart(s.length, '0');
  const tail = text
    .slice(xref)
    .replace(/^(\d{10}) (\d{5}) n/gm, (_, off: string, gen: string) => `${shift(off)} ${gen} n`)
    .replace(/startxref\n(\d+)/, (_, off: string) => `startxref\n${Number(off) + delta}`);
  return new Uint8Array(Buffer.from(head + text.slice(first!.index, xref) + tail, 'latin1'));
}
