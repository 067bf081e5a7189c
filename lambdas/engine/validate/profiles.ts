/**
 * Validate profile codes (docs/api.md §5) as standards: family, part and level; and
 * `auto`, which becomes whatever the file claims in its XMP metadata.
 */
import type { ValidateProfileCode } from '../../../step-definitions/catalogue';
import { VALIDATE_PROFILES } from '../profile-catalogue';
import type { XmpFacts } from '../core/xmp/identification';

export type ConcreteCode = Exclude<ValidateProfileCode, 'auto'>;

export interface StandardProfile {
  code: ConcreteCode;
  family: 'pdfa' | 'pdfua';
  /** 1–4 for PDF/A, 1–2 for PDF/UA. */
  part: number;
  /** a, b, u (PDF/A-1–3), e, f (PDF/A-4), '' (PDF/A-4 base, PDF/UA). */
  level: string;
  name: string;
}

export function standardProfile(code: ConcreteCode): StandardProfile {
  const name = VALIDATE_PROFILES.find((p) => p.code === code)?.name ?? code;
  if (code.startsWith('ua')) return { code, family: 'pdfua', part: Number(code.slice(2)), level: '', name };
  return { code, family: 'pdfa', part: Number(code[0]), level: code.slice(1), name };
}

/** The rule family key used in clause tables: `1`…`4` for PDF/A parts, `ua1`/`ua2`. */
export function familyKey(p: StandardProfile): string {
  return p.family === 'pdfua' ? p.code : String(p.part);
}

export type Claim = { code: ConcreteCode } | { unknown: string };

/**
 * What the file claims: PDF/A from pdfaid part + conformance, PDF/UA from
 * pdfuaid part; both when it claims both. A claim naming no known profile (PDF/A-5,
 * conformance "X") is returned as unknown so the result can say so.
 */
export function claimedProfiles(xmp: XmpFacts): Claim[] {
  const claims: Claim[] = [];
  const part = xmp.pdfa?.part?.value.trim();
  if (part) {
    const conformance = (xmp.pdfa?.conformance?.value ?? '').trim().toLowerCase();
    const code = `${part}${conformance}`;
    claims.push(isConcrete(code) && !code.startsWith('ua') ? { code } : { unknown: `PDF/A-${part}${conformance}` });
  }
  const ua = xmp.pdfua?.part?.value.trim();
  if (ua) {
    const code = `ua${ua}`;
    claims.push(isConcrete(code) ? { code } : { unknown: `PDF/UA-${ua}` });
  }
  return claims;
}

function isConcrete(code: string): code is ConcreteCode {
  return code !== 'auto' && VALIDATE_PROFILES.some((p) => p.code === code);
}
