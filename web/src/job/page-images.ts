/**
 * The page images of a task's file that the job itself holds: a previews step's outputs
 * (docs/api.md §11 rule 6). A previews step shows the file as the steps before it left it, so
 * one that ran before any step changed the file shows the original, and one after a fixing
 * autofix (or an optimize that made the file smaller) shows the new file.
 *
 * Preflight's own `proof` images are not used as page images: they have the findings drawn into
 * them already (engine/previews/proof.ts) and exist only for the first ten pages with findings,
 * while the console draws its frames itself, on every page, and highlights the chosen one.
 */
import type { PageImage } from '../findings/page-view';
import { isPreviewsOutput, type TaskDetail } from './job-detail';

export type PageImages = Map<number, PageImage>;

/** What previews jobs the console starts render: large enough to zoom in on small type. */
export const PREVIEW_PARAMS = { format: 'jpeg', width: 1400, height: 1400, quality: 85 } as const;

const CHANGES_FILE = new Set(['autofix', 'optimize']);

/** The images of the original file (`original`) or of the file as changed by the task's steps (`changed`), or null. */
export function ownPreviews(task: TaskDetail, which: 'original' | 'changed'): PageImages | null {
  let changed = false;
  let found: PageImages | null = null;
  for (const step of task.steps ?? []) {
    if (CHANGES_FILE.has(step.type) && step.outcome === 'fixed') changed = true;
    if (step.type !== 'previews' || step.status !== 'done' || changed !== (which === 'changed')) continue;
    const entry = (step.outputs ?? []).find(isPreviewsOutput);
    const images: PageImages = new Map();
    for (const p of entry?.pages ?? []) if (p.url) images.set(p.page, { url: p.url, width: p.width, height: p.height });
    if (images.size > 0) {
      found = images;
      if (which === 'original') return found;
    }
  }
  return found;
}
