/**
 * The font clauses of each standard part, per concept. PDF/A-2 and -3 share
 * their numbering; PDF/A-4 and PDF/UA-2 follow ISO 32000-2 and number the same
 * requirements differently.
 */
import type { StandardProfile } from '../profiles';

type Clauses = Readonly<Record<string, string>>;

export const CLAUSES = {
  cidSystemInfo: { 1: '6.3.3.1', 2: '6.2.11.3.1', 3: '6.2.11.3.1', 4: '6.2.10.3.1', ua1: '7.21.3.1', ua2: '8.4.5.3.1' },
  cidToGid: { 1: '6.3.3.2', 2: '6.2.11.3.2', 3: '6.2.11.3.2', 4: '6.2.10.3.2', ua1: '7.21.3.2', ua2: '8.4.5.3.2' },
  cmaps: { 1: '6.3.3.3', 2: '6.2.11.3.3', 3: '6.2.11.3.3', 4: '6.2.10.3.3', ua1: '7.21.3.3', ua2: '8.4.5.4' },
  embedded: { 1: '6.3.4', 2: '6.2.11.4.1', 3: '6.2.11.4.1', 4: '6.2.10.4.1' },
  embeddedUa: { ua1: '7.21.4.1', ua2: '8.4.5.5.1' },
  glyphsPresent: { 1: '6.3.5', 2: '6.2.11.4.1', 3: '6.2.11.4.1', 4: '6.2.10.4.1', ua1: '7.21.4.1', ua2: '8.4.5.5.1' },
  subsets: { 1: '6.3.5', 2: '6.2.11.4.2', 3: '6.2.11.4.2', ua1: '7.21.4.2' },
  metrics: { 1: '6.3.6', 2: '6.2.11.5', 3: '6.2.11.5', 4: '6.2.10.5', ua1: '7.21.5', ua2: '8.4.5.6' },
  encodings: { 1: '6.3.7', 2: '6.2.11.6', 3: '6.2.11.6', 4: '6.2.10.6', ua1: '7.21.6', ua2: '8.4.5.7' },
  unicodeMapped: { 1: '6.3.8', 2: '6.2.11.7.2', 3: '6.2.11.7.2' },
  unicodeMappedUa: { ua1: '7.21.7', ua2: '8.4.5.8' },
  unicodeValues: { 2: '6.2.11.7.2', 3: '6.2.11.7.2', 4: '6.2.10.7', ua1: '7.21.7', ua2: '8.4.5.8' },
  privateUse: { 2: '6.2.11.7.3', 3: '6.2.11.7.3' },
  actualTextPua: { 4: '6.2.10.8' },
  notdef: { 2: '6.2.11.8', 3: '6.2.11.8', 4: '6.2.10.9', ua1: '7.21.8', ua2: '8.4.5.9' },
} satisfies Record<string, Clauses>;

/** PDF/A-1 (built on PDF 1.4) is stricter in places the later parts relaxed. */
export const isPdfA1 = (p: StandardProfile): boolean => p.family === 'pdfa' && p.part === 1;
/** Parts built on ISO 32000-2 (PDF/A-4, PDF/UA-2). */
export const isPdf2 = (p: StandardProfile): boolean => (p.family === 'pdfa' && p.part === 4) || (p.family === 'pdfua' && p.part === 2);

/** CMaps a conforming reader must know (ISO 32000-1 Table 118, ISO 32000-2 Table 116). */
export const PREDEFINED_CMAPS = new Set(
  [
    'GB-EUC', 'GBpc-EUC', 'GBK-EUC', 'GBKp-EUC', 'GBK2K', 'UniGB-UCS2', 'UniGB-UTF16',
    'B5pc', 'HKscs-B5', 'ETen-B5', 'ETenms-B5', 'CNS-EUC', 'UniCNS-UCS2', 'UniCNS-UTF16',
    '90ms-RKSJ', '90msp-RKSJ', 'Add-RKSJ', 'EUC', 'Ext-RKSJ', 'UniJIS-UCS2', 'UniJIS-UCS2-HW', 'UniJIS-UTF16',
    'KSC-EUC', 'KSCms-UHC', 'KSCms-UHC-HW', 'UniKS-UCS2', 'UniKS-UTF16', 'Identity',
  ].flatMap((n) => [`${n}-H`, `${n}-V`]).concat(['83pv-RKSJ-H', '90pv-RKSJ-H', 'KSCpc-EUC-H', 'H', 'V']),
);

/** Registry-Ordering of a predefined CMap's character collection. */
export function predefinedOrdering(cmap: string): string | null {
  if (/^Identity-[HV]$/.test(cmap)) return null;
  if (/^(GB|UniGB)/.test(cmap)) return 'Adobe-GB1';
  if (/^(B5|HK|ETen|CNS|UniCNS)/.test(cmap)) return 'Adobe-CNS1';
  if (/^(KSC|UniKS)/.test(cmap)) return 'Adobe-Korea1';
  if (/RKSJ|^EUC|^UniJIS|^[HV]$/.test(cmap)) return 'Adobe-Japan1';
  return null;
}
