/**
 * Interactive features: annotations, actions and trigger events, forms,
 * embedded files, optional content, and the PDF/UA requirements on tagging
 * annotations. Each rule is data (id, clause per standard part, levels,
 * description) plus one predicate over the model; one concept per file.
 */
import type { Rule } from '../rule';
import { ACTION_RULES } from './action-rules';
import { ANNOTATION_RULES } from './annotation-rules';
import { EMBEDDED_FILE_RULES } from './embedded-file-rules';
import { FORM_RULES } from './form-rules';
import { OPTIONAL_CONTENT_RULES } from './optional-content-rules';
import { UA_ANNOTATION_RULES } from './ua-annotation-rules';
import { DESTINATION_RULES } from './destination-rules';
import { SIGNATURE_RULES } from './signature-rules';
import { UA2_ANNOTATION_RULES } from './ua2-annotation-rules';
import { UA_FORM_RULES } from './ua-form-rules';

export const INTERACTIVE_RULES: readonly Rule[] = [...OPTIONAL_CONTENT_RULES, ...EMBEDDED_FILE_RULES, ...ACTION_RULES, ...FORM_RULES, ...ANNOTATION_RULES, ...UA_ANNOTATION_RULES, ...SIGNATURE_RULES, ...UA2_ANNOTATION_RULES, ...UA_FORM_RULES, ...DESTINATION_RULES];
