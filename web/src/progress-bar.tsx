/**
 * How far a job or a task has got (the API's `progress`, docs/api.md §4): a native
 * <progress> (role progressbar, its value the percentage) named for what it measures,
 * with the same facts in words beside it, so the bar is never the only signal.
 */
import type { Progress } from './api';
import { progressWords } from './format';

/** `label` names what is measured ("Progress of card.pdf"); nothing is shown without a progress. */
export function ProgressBar({ progress, label }: { progress: Progress | undefined; label: string }) {
  if (!progress) return null;
  const words = progressWords(progress);
  return (
    <span class="progress">
      <progress max={100} value={progress.percent} aria-label={label} aria-valuetext={`${progress.percent} %, ${words}`}>
        {progress.percent} %
      </progress>
      <span class="progress-words">
        {progress.percent} % · {words}
      </span>
    </span>
  );
}
