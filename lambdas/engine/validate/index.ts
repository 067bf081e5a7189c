/**
 * Validate: checks a PDF against PDF/A and PDF/UA profiles and reports, per
 * requested profile, what was checked and what failed (docs/api.md §4 `validate`).
 *
 * `auto` becomes every conformance the file claims in its XMP metadata (PDF/A
 * and PDF/UA both when it claims both); a file claiming none, or a level
 * Proofline does not know, is reported unmatched and not compliant. A file
 * that cannot be read, or needs a password to open, is refused with
 * UnprocessableFileError (the task ends in `error` with that sentence): no
 * verdict is given on what could not be read.
 *
 * The document model is built once and shared by every requested profile.
 */
import type { ValidateProfileCode } from '../../../step-definitions/catalogue';
import type { ValidationProfileResult } from '../../domain/step-results';
import { readEmbeddedFiles } from '../core/embedded-files';
import { openPdfFile, type OpenedPdf } from '../core/load-pdf';
import { embeddedVerdicts } from './embedded-verdicts';
import { evaluateProfile, unmatched } from './evaluate';
import { ValidationModel } from './model';
import { claimedProfiles, standardProfile, type ConcreteCode } from './profiles';

export { rulesFor } from './evaluate';

export interface ValidateInput {
  path: string;
  profiles: ValidateProfileCode[];
}

export interface ValidateResult {
  outcome: 'pass' | 'fail';
  compliant: boolean;
  profiles: ValidationProfileResult[];
}

export async function validate(input: ValidateInput): Promise<ValidateResult> {
  // Whole: the syntax rules scan the file's raw bytes (model.bytes); objects are still parsed lazily, from that buffer.
  const pdf = await openPdfFile(input.path, { wholeFile: true });
  try {
    return await validateOpenedFile(pdf, input);
  } finally {
    pdf.source.close();
  }
}

async function validateOpenedFile(pdf: OpenedPdf, input: ValidateInput): Promise<ValidateResult> {
  const model = await modelOf(pdf, 0);
  const requested = [...new Set(input.profiles.length ? input.profiles : (['auto'] as ValidateProfileCode[]))];
  const profiles: ValidationProfileResult[] = [];
  for (const code of requested) {
    if (code !== 'auto') {
      profiles.push(evaluateProfile(code, standardProfile(code), model));
      continue;
    }
    const claims = claimedProfiles(model.facts.xmp);
    if (claims.length === 0) {
      profiles.push(unmatched('claim.none', 'The file claims no PDF/A or PDF/UA conformance in its XMP metadata, so "auto" has nothing to validate against; request a specific profile such as 2b or ua1.'));
    }
    for (const claim of claims) {
      profiles.push('code' in claim ? evaluateProfile('auto', standardProfile(claim.code), model) : unmatched('claim.unknown', `The file claims ${claim.unknown}, which is not a conformance level Proofline knows; it cannot be validated automatically.`));
    }
  }
  const compliant = profiles.length > 0 && profiles.every((p) => p.compliant);
  return { outcome: compliant ? 'pass' : 'fail', compliant, profiles };
}

/** The model of an opened file; embedded PDFs are validated first (embedded-verdicts.ts), `depth` levels down. */
async function modelOf(pdf: OpenedPdf, depth: number): Promise<ValidationModel> {
  return new ValidationModel(pdf, readEmbeddedFiles(pdf.doc), await embeddedVerdicts(pdf.doc, depth, validateEmbedded));
}

async function validateEmbedded(pdf: OpenedPdf, code: ConcreteCode, depth: number): Promise<{ compliant: boolean; failedRules: string[] }> {
  const result = evaluateProfile(code, standardProfile(code), await modelOf(pdf, depth));
  return { compliant: result.compliant, failedRules: result.failures.map((f) => f.ruleId) };
}
