/**
 * The text a reader or a search index gets out of a PDF: pdfjs's text content
 * of the first pages, as one string per page. Autofix must keep it (its text
 * stays extractable); the tests and `npm run bench:autofix` compare it before
 * and after.
 */
import { readFile } from 'node:fs/promises';
import { openForRendering } from '../../lambdas/engine/previews/pdfjs';

export async function extractText(pdfPath: string, maxPages = 5): Promise<string[]> {
  const pdf = await openForRendering(new Uint8Array(await readFile(pdfPath)));
  try {
    const out: string[] = [];
    for (let n = 1; n <= Math.min(pdf.numPages, maxPages); n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      out.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
      page.cleanup();
    }
    return out;
  } finally {
    await pdf.destroy();
  }
}

/** Characters other than white space: what counts when comparing extracted text. */
export const visibleChars = (pages: string[]): number => pages.join('').replace(/\s+/g, '').length;
