/**
 * Output intents (ISO 32000-1 14.11.5): the printing condition a file was made
 * for, as PDF/X and PDF/A declare it, with what the embedded ICC profile's header
 * says about itself (ICC.1 7.2: device class at byte 12, colour space at 16,
 * version at 8).
 */
import { PDFDict, PDFStream, type PDFDocument } from '@cantoo/pdf-lib';
import { getName, getText, name, refNumber, resolve, resolvedItems, streamBytes } from './pdf-objects';

export interface IccHeader {
  /** `prtr`, `mntr`, `scnr`, `spac`… */
  deviceClass: string;
  /** `RGB `, `CMYK`, `GRAY`, `Lab `… (four characters, as in the header). */
  colourSpace: string;
  /** `2.1`, `4.3`. */
  version: string;
  /** The version's major and minor numbers (PDF/A limits the major one per part). */
  major: number;
  minor: number;
}

export interface OutputIntentInfo {
  /** GTS_PDFX, GTS_PDFA1, ISO_PDFE1… */
  subtype: string | null;
  outputConditionIdentifier: string | null;
  outputCondition: string | null;
  registryName: string | null;
  info: string | null;
  hasProfile: boolean;
  /** Object number of DestOutputProfile (PDF/A: several intents must share one). */
  profileObjectNumber: number | null;
  /** Parsed header; null when absent or unreadable. */
  profile: IccHeader | null;
  /** DestOutputProfileRef (PDF/X-5 external profile) is present. */
  hasProfileRef: boolean;
}

export function readOutputIntents(doc: PDFDocument): OutputIntentInfo[] {
  const catalog = doc.catalog as PDFDict;
  const ctx = doc.context;
  return resolvedItems(ctx, catalog.get(name('OutputIntents')))
    .filter((oi): oi is PDFDict => oi instanceof PDFDict)
    .map((oi) => {
      const profile = resolve(ctx, oi.get(name('DestOutputProfile')));
      const bytes = profile instanceof PDFStream ? streamBytes(profile) : null;
      return {
        subtype: getName(oi, 'S') ?? null,
        outputConditionIdentifier: getText(oi, 'OutputConditionIdentifier') ?? null,
        outputCondition: getText(oi, 'OutputCondition') ?? null,
        registryName: getText(oi, 'RegistryName') ?? null,
        info: getText(oi, 'Info') ?? null,
        hasProfile: profile instanceof PDFStream,
        profileObjectNumber: refNumber(oi, 'DestOutputProfile') ?? null,
        profile: bytes ? parseIccHeader(bytes) : null,
        hasProfileRef: oi.has(name('DestOutputProfileRef')),
      };
    });
}

export function parseIccHeader(bytes: Uint8Array): IccHeader | null {
  if (bytes.length < 128) return null;
  const ascii = (from: number) => String.fromCharCode(...bytes.subarray(from, from + 4));
  // 'acsp' at byte 36 is the ICC file signature.
  if (ascii(36) !== 'acsp') return null;
  const major = bytes[8]!;
  const minor = bytes[9]! >> 4;
  return { deviceClass: ascii(12), colourSpace: ascii(16), version: `${major}.${minor}`, major, minor };
}
