/**
 * pdfx.prepare: the declarations a print workflow reads from a PDF/X-4 file.
 *
 * - Output intent GTS_PDFX: an existing one is kept (the printing condition is
 *   the customer's decision); else one sharing the profile of another intent
 *   whose profile is a printer (prtr) profile; else one naming the printing
 *   condition by its registered characterization (param `condition`, default
 *   FOGRA39, registry http://www.color.org) without a profile.
 * - The PDF/X-4 claim (XMP pdfxid:GTS_PDFXVersion, and Info GTS_PDFXVersion for
 *   older readers) is written only when the PDF/X intent embeds its profile:
 *   ISO 15930-7 requires DestOutputProfile in a PDF/X-4 output intent (only
 *   PDF/X-4p may reference an external one), and this fix does not ship CMYK
 *   characterization profiles. Without one, the intent still names the
 *   condition (which resolves preflight's document.output-intent) and the
 *   detail says why the claim was not written.
 * - Trapped: Info /Trapped and XMP pdf:Trapped True or False; a value that is
 *   missing or Unknown becomes False (nothing we can see says the file was trapped).
 * - Trailer ID; CreationDate when the file has none anywhere (the version the
 *   fix writes is created now); Info and XMP in agreement (metadata.sync's code).
 * - Header at most %PDF-1.6 (PDF/X-4 is based on PDF 1.6).
 * - A TrimBox on every page: when a page lacks one, boxes.normalize's code runs
 *   (it normally ran already, earlier in the catalogue order, and then does nothing here).
 *
 * Colour, fonts, transparency and images are not touched. PDF/X-1a is not
 * offered: its requirements (CMYK and spot only, no transparency, PDF 1.4) are
 * about content this fix does not change, so it could only write a false claim.
 */
import { PDFDict, PDFName, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import type { OrderContext } from '../../../domain/model';
import { readPageBoxes } from '../../core/page-boxes';
import { getName, getStream, getText, name, resolve, streamBytes } from '../../core/pdf-objects';
import { NS } from '../../core/xmp/schemas';
import { normalizeBoxes } from '../fix-boxes';
import type { FixOutcome } from '../fix';
import { formatPdfDate, utcParts } from './dates';
import { addOutputIntent, ensureTrailerId, headerVersion, outputIntents, profileRef, setHeaderVersion } from './document-parts';
import { syncMetadata } from './metadata-sync';
import { xmpValue } from './xmp-writer';

export const PDFX_VERSIONS = ['PDF/X-4'] as const;
export const DEFAULT_CONDITION = 'FOGRA39';

export interface PdfxPrepareOptions {
  version: string;
  condition: string;
  order: OrderContext | null;
  /** The bleed the profile's bleed.insufficient requires, for the BleedBox boxes.normalize's code declares (fix-boxes.ts). */
  requiredBleedMm?: number;
  now?: () => Date;
}

export function preparePdfx(doc: PDFDocument, opts: PdfxPrepareOptions): FixOutcome {
  if (!PDFX_VERSIONS.includes(opts.version as 'PDF/X-4')) {
    return { count: 0, pages: [], detail: 'nothing prepared', skipReason: `${opts.version} is not a version this fix prepares (it prepares ${PDFX_VERSIONS.join(', ')}).` };
  }
  const now = (opts.now ?? (() => new Date()))();
  const condition = opts.condition.trim().slice(0, 127) || DEFAULT_CONDITION;
  const done: string[] = [];
  const pages = new Set<number>();
  const ctx = doc.context;

  const [major, minor] = headerVersion(doc);
  if (major !== 1 || minor > 6) {
    setHeaderVersion(doc, 1, 6);
    done.push('header version 1.6');
  }
  if (ensureTrailerId(doc)) done.push('trailer ID');

  // TrimBox on every page (boxes.normalize's rules for where it comes from).
  if (pagesLackingTrim(doc)) {
    const boxes = normalizeBoxes(doc, opts.order, opts.requiredBleedMm);
    boxes.pages.forEach((p) => pages.add(p));
    if (boxes.count) done.push(`page boxes normalised on ${boxes.count} page${boxes.count === 1 ? '' : 's'}`);
  }

  // Output intent.
  const intents = outputIntents(doc);
  let pdfx = intents.find((i) => i.subtype === 'GTS_PDFX');
  if (pdfx) {
    if (getText(pdfx.dict, 'OutputConditionIdentifier') === undefined) {
      pdfx.dict.set(name('OutputConditionIdentifier'), PDFString.of(condition));
      done.push('output condition identifier set');
    }
  } else {
    const donor = intents.find((i) => i.profile && i.header?.deviceClass === 'prtr');
    const entries: Record<string, unknown> = { Type: 'OutputIntent', S: 'GTS_PDFX' };
    if (donor) {
      entries['DestOutputProfile'] = profileRef(doc, donor);
      for (const k of ['OutputConditionIdentifier', 'OutputCondition', 'RegistryName', 'Info']) {
        const v = donor.dict.get(name(k));
        if (v !== undefined) entries[k] = v;
      }
      entries['OutputConditionIdentifier'] ??= PDFString.of('Custom');
    } else {
      entries['OutputConditionIdentifier'] = PDFString.of(condition);
      entries['RegistryName'] = PDFString.of('http://www.color.org');
      entries['Info'] = PDFString.of(condition);
    }
    const dict = ctx.obj(entries as never) as unknown as PDFDict;
    addOutputIntent(doc, dict);
    pdfx = outputIntents(doc).find((i) => i.dict === dict);
    done.push(donor ? 'PDF/X output intent added (the file\'s own profile)' : `PDF/X output intent added (${condition}, no embedded profile)`);
  }
  const claimable = !!pdfx?.profile && pdfx.header?.deviceClass === 'prtr';

  // Info: Trapped and, when missing everywhere, CreationDate.
  let info = resolve(ctx, ctx.trailerInfo.Info);
  if (!(info instanceof PDFDict)) {
    info = ctx.obj({}) as unknown as PDFDict;
    ctx.trailerInfo.Info = ctx.register(info);
  }
  const infoDict = info as PDFDict;
  const trapped = getName(infoDict, 'Trapped') ?? getText(infoDict, 'Trapped');
  const trappedValue = trapped === 'True' || trapped === 'true' ? 'True' : 'False';
  if (getName(infoDict, 'Trapped') !== trappedValue) done.push(`Trapped ${trappedValue}`);
  if (getText(infoDict, 'CreationDate') === undefined && !hasXmpCreateDate(doc)) {
    infoDict.set(name('CreationDate'), PDFString.of(formatPdfDate(utcParts(now))));
    done.push('CreationDate');
  }

  const claim = claimable ? opts.version : null;
  const metadata = syncMetadata(doc, {
    now: () => now,
    set: [xmpValue.text(NS.pdf, 'pdf', 'Trapped', trappedValue), ...(claim ? [xmpValue.text(NS.pdfxid, 'pdfxid', 'GTS_PDFXVersion', claim)] : [])],
    info: { Trapped: PDFName.of(trappedValue), ...(claim ? { GTS_PDFXVersion: PDFString.of(claim) } : {}) },
    touched: done.length > 0,
  });
  done.push(...metadata.changes.filter((c) => c !== 'Info Trapped'));

  const notes: string[] = [];
  if (!claim) notes.push(`the ${opts.version} claim was not written: the PDF/X output intent has no embedded printer profile, which ${opts.version} requires`);
  if (getText(infoDict, 'Title') === undefined) notes.push('the file has no title (PDF/X readers expect one)');
  return {
    count: done.length,
    pages: [...pages].sort((a, b) => a - b),
    detail: `${done.length ? `PDF/X declarations: ${done.join('; ')}` : 'already prepared'}${notes.length ? `; ${notes.join('; ')}` : ''}.`,
    ...(done.length === 0 && notes.length ? { skipReason: `Nothing to change; ${notes.join('; ')}.` } : {}),
  };
}

function pagesLackingTrim(doc: PDFDocument): boolean {
  try {
    return doc.getPages().some((p) => readPageBoxes(doc.context, p.node).declared.TrimBox === null);
  } catch {
    return false;
  }
}

function hasXmpCreateDate(doc: PDFDocument): boolean {
  // Cheap check; metadata.sync's code reads the packet properly and copies the date to Info.
  const stream = getStream(doc.catalog as PDFDict, 'Metadata');
  const bytes = stream ? streamBytes(stream) : null;
  return bytes !== null && /CreateDate/.test(new TextDecoder().decode(bytes));
}
