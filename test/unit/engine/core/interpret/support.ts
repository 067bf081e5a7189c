/**
 * Shared by the interpreter's tests: builds a PDF from content-fixture specs,
 * opens it as the engines do and interprets it. Strict mode is on, so a fault
 * in an operator handler fails the test instead of being skipped as a
 * malformed operator would be.
 */
import { interpretDocument } from '../../../../../lambdas/engine/core/interpret/interpret-document';
import { setStrictInterpretation } from '../../../../../lambdas/engine/core/interpret/executor';
import type { InterpretOptions } from '../../../../../lambdas/engine/core/interpret/document-run';
import type { PageInventory } from '../../../../../lambdas/engine/core/interpret/types';
import { openPdfBytes } from '../../../../../lambdas/engine/core/load-pdf';
import { contentPdf, type ContentPageSpec } from '../../../../support/content-fixtures';

setStrictInterpretation(true);

export async function interpretPages(pages: ContentPageSpec[], options?: InterpretOptions): Promise<PageInventory[]> {
  const { doc } = await openPdfBytes(await contentPdf({ pages }));
  return interpretDocument(doc, options);
}

export async function interpretOne(page: ContentPageSpec, options?: InterpretOptions): Promise<PageInventory> {
  return (await interpretPages([page], options))[0]!;
}

/** Rounds every number of a box to 0.01 pt for comparisons. */
export const rounded = (r: readonly number[]): number[] => r.map((v) => Math.round(v * 100) / 100);
