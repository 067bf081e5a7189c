/**
 * A report's findings grouped by severity, each with its number (as on the page frames), its
 * severity's symbol and word, and the report's sentence. Each finding is a toggle button: Enter
 * or a click chooses it, the arrow keys move to the next or previous one and choose it.
 * Shared by the console's job page and the customer's proof page:
 *   <FindingsList findings={report.findings} selected={n} onSelect={(n) => …} headingLevel={4} />
 */
import type { ReportFinding } from './report';
import { pagesOf } from './marks';
import { SEVERITIES, severityHeading, severitySymbol, severityWord } from './severity';

export interface FindingsListProps {
  findings: readonly ReportFinding[];
  selected: number | null;
  onSelect: (findingNumber: number) => void;
  headingLevel?: 3 | 4;
  /** Told when there is nothing to list. */
  emptyText?: string;
}

/** "page 3", "pages 1–4" (the report's sentence names them all). */
function pagesNote(f: ReportFinding): string {
  const pages = pagesOf(f);
  if (pages.length === 0) return 'whole document';
  return pages.length === 1 ? `page ${pages[0]}` : `pages ${pages[0]}–${pages[pages.length - 1]}`;
}

function moveFocus(e: KeyboardEvent, onSelect: (n: number) => void): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const list = (e.currentTarget as HTMLElement).closest('.findings-list');
  const buttons = [...(list?.querySelectorAll<HTMLButtonElement>('button[data-finding]') ?? [])];
  const at = buttons.indexOf(e.currentTarget as HTMLButtonElement);
  const next = buttons[at + (e.key === 'ArrowDown' ? 1 : -1)];
  if (!next) return;
  e.preventDefault();
  next.focus();
  onSelect(Number(next.dataset.finding));
}

export function FindingsList({ findings, selected, onSelect, headingLevel = 4, emptyText = 'No findings: nothing the profile checks needs attention.' }: FindingsListProps) {
  if (findings.length === 0) return <p class="findings-empty">{emptyText}</p>;
  const Heading = headingLevel === 3 ? 'h3' : 'h4';
  const numbered = findings.map((f, i) => ({ f, n: i + 1 }));
  return (
    <div class="findings-list">
      {SEVERITIES.map((severity) => {
        const group = numbered.filter(({ f }) => f.severity === severity);
        if (group.length === 0) return null;
        return (
          <section class={`findings-group findings-${severity}`}>
            <Heading>
              <span aria-hidden="true">{severitySymbol(severity)}</span> {severityHeading(severity)} ({group.length})
            </Heading>
            <ul>
              {group.map(({ f, n }) => (
                <li>
                  <button
                    type="button"
                    class={`finding finding-${severity}`}
                    data-finding={n}
                    aria-pressed={selected === n}
                    onClick={() => onSelect(n)}
                    onKeyDown={(e) => moveFocus(e, onSelect)}
                  >
                    <span class={`finding-number mark-${severity}`}>
                      <span aria-hidden="true">{severitySymbol(severity)}</span> {n}
                      <span class="visually-hidden"> {severityWord(severity)}</span>
                    </span>
                    <span class="finding-text">
                      {f.message} <span class="muted">({pagesNote(f)})</span>
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </div>
  );
}
