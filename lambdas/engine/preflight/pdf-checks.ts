/**
 * The checks of a PDF preflight, by concern: each module judges the gathered
 * facts against the profile's (context-narrowed) thresholds and emits
 * observations, and holds the messages that turn a group of its observations
 * into the sentence a customer reads.
 */
import type { CheckId, PdfCheckId } from './check-catalogue';
import type { MessageWriter, Observation } from './findings';
import { BOX_MESSAGES, checkBoxes } from './checks-boxes';
import { checkColour, COLOUR_MESSAGES } from './checks-colour';
import { checkDocument, DOCUMENT_MESSAGES } from './checks-document';
import { checkImages, IMAGE_MESSAGES } from './checks-images';
import { checkAgainstOrder, ORDER_MESSAGES } from './checks-against-order';
import { checkText, TEXT_MESSAGES } from './checks-text';
import { checkTransparency, TRANSPARENCY_MESSAGES } from './checks-transparency';
import type { PdfFacts } from './pdf-facts';
import type { PreflightSettings } from './settings';

export function checkPdf(facts: PdfFacts, settings: PreflightSettings): Observation<PdfCheckId>[] {
  return [
    ...checkDocument({ document: facts.document, actions: facts.actions, annotations: facts.annotations, pages: facts.pages }, settings),
    ...checkBoxes(facts.pages, settings),
    ...checkAgainstOrder(facts.pages, facts.document.pageCount, settings),
    ...checkText(facts.pages, facts.fonts, settings),
    ...checkColour(facts.pages, settings),
    ...checkTransparency(facts.pages, settings),
    ...checkImages(facts.images, settings),
  ];
}

/** A message for every check a PDF gets: a PDF check without one does not compile. */
export const PDF_MESSAGES: Partial<Record<CheckId, MessageWriter>> = {
  ...DOCUMENT_MESSAGES,
  ...BOX_MESSAGES,
  ...ORDER_MESSAGES,
  ...TEXT_MESSAGES,
  ...COLOUR_MESSAGES,
  ...TRANSPARENCY_MESSAGES,
  ...IMAGE_MESSAGES,
} satisfies Record<PdfCheckId, MessageWriter>;
