/** How the console writes statuses, outcomes, sizes and times: words and a symbol, never colour alone. */

const SYMBOLS: Record<string, string> = {
  pending: '…',
  running: '↻',
  done: '✓',
  error: '✕',
  pass: '✓',
  fail: '✕',
  warn: '⚠',
  fixed: '✎',
  unchanged: '=',
  na: '–',
  manual_review: '⚑',
};

export function symbolOf(value: string | null): string {
  return value === null ? '–' : (SYMBOLS[value] ?? '•');
}

export function words(value: string | null): string {
  return value === null ? 'none yet' : value.replace(/_/g, ' ');
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 ** 3).toFixed(2)} GB`;
}

export function formatTime(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A job's or task's `progress` in words: "2 of 3 steps, 40 of 120 pages"; the pages only once known. */
export function progressWords(p: { stepsDone: number; stepsTotal: number; pagesDone: number; pagesTotal: number | null }): string {
  const steps = `${p.stepsDone} of ${count(p.stepsTotal, 'step')}`;
  return p.pagesTotal ? `${steps}, ${p.pagesDone} of ${count(p.pagesTotal, 'page')}` : steps;
}
