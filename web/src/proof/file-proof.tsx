/**
 * One file of the shared job: its name, verdict, findings (numbered, each with
 * a word and symbol for its severity besides its colour) and its pages with
 * the findings' boxes over them. Choosing a finding highlights its boxes and
 * scrolls to its first page; choosing a box selects its finding.
 *
 * Over a plain page image (previews) every box is drawn here; a proof image
 * has the findings framed already, so only the chosen finding is outlined on
 * top. Boxes are placed in percent of the image, as the API gives them.
 */
import { useState } from 'preact/hooks';
import type { PercentRect, Severity, SharedFile, SharedPage } from './shared-api';

const SEVERITY: Record<Severity, { symbol: string; words: string }> = {
  error: { symbol: '✕', words: 'Must fix' },
  warn: { symbol: '⚠', words: 'Check' },
  info: { symbol: 'ℹ', words: 'Note' },
};

const VERDICT: Record<string, string> = { pass: '✓ Ready to print', warn: '⚠ Printable, with points to check', fail: '✕ Needs changes before printing' };

const place = (r: PercentRect) => ({ left: `${r.left}%`, top: `${r.top}%`, width: `${r.width}%`, height: `${r.height}%` });

function PageView({ page, fileIndex, fileName, selected, onSelect }: { page: SharedPage; fileIndex: number; fileName: string; selected: number | null; onSelect: (n: number) => void }) {
  const src = page.previewUrl ?? page.proofUrl;
  const framed = page.previewUrl === null;
  const numbers = [...new Set(page.boxes.map((b) => b.finding))];
  return (
    <figure class="page" id={`file-${fileIndex}-page-${page.page}`}>
      <div class="page-image">
        {src ? <img src={src} alt={`Page ${page.page} of ${fileName}`} width={page.width ?? undefined} height={page.height ?? undefined} /> : <p class="muted">No image of this page.</p>}
        {!framed && page.trimBox ? <div class="trim-line" style={place(page.trimBox)} aria-hidden="true" /> : null}
        {!framed && page.bleedBox ? <div class="bleed-line" style={place(page.bleedBox)} aria-hidden="true" /> : null}
        {page.boxes.map((b, i) =>
          framed && selected !== b.finding ? null : (
            <button
              key={i}
              type="button"
              class={`box box-${b.severity}${selected === b.finding ? ' box-selected' : ''}${framed ? ' box-over-proof' : ''}`}
              style={place(b)}
              aria-label={`Finding ${b.finding} on page ${page.page}`}
              aria-pressed={selected === b.finding}
              onClick={() => onSelect(b.finding)}
            >
              {framed ? null : <span class="box-number">{b.finding}</span>}
            </button>
          ),
        )}
      </div>
      <figcaption>
        Page {page.page}
        {numbers.length > 0 ? ` · findings ${numbers.join(', ')}` : ' · nothing found here'}
      </figcaption>
    </figure>
  );
}

export function FileProof({ file, index }: { file: SharedFile; index: number }) {
  const [selected, setSelected] = useState<number | null>(null);
  const choose = (n: number) => {
    setSelected(n === selected ? null : n);
    const finding = file.findings.find((f) => f.number === n);
    const first = file.pages.find((p) => p.boxes.some((b) => b.finding === n)) ?? file.pages.find((p) => finding?.pages.includes(p.page));
    if (first && n !== selected) document.getElementById(`file-${index}-page-${first.page}`)?.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  };
  return (
    <section class="file" aria-labelledby={`file-${index}-name`}>
      <h2 id={`file-${index}-name`} class="file-name">
        {file.name}
      </h2>
      {file.reason ? <p class="reason">This file could not be checked: {file.reason}</p> : null}
      {file.preflight ? (
        <p class={`verdict verdict-${file.preflight.outcome}`}>
          {VERDICT[file.preflight.outcome]} ({file.preflight.errors} to fix, {file.preflight.warnings} to check)
        </p>
      ) : file.status !== 'error' ? (
        <p class="muted">{file.status === 'done' ? 'No check results for this file.' : 'This file is still being checked.'}</p>
      ) : null}
      {file.fixed ? (
        <p class="fixed">
          <span aria-hidden="true">✎ </span>A corrected file was made:{' '}
          <a href={file.fixed.downloadUrl} download={file.fixed.fileName}>
            download {file.fixed.fileName}
          </a>
        </p>
      ) : null}
      <div class="proof-layout">
        {file.findings.length > 0 ? (
          <ol class="findings" aria-label={`Findings in ${file.name}`}>
            {file.findings.map((f) => (
              <li key={f.number} class={`finding finding-${f.severity}`}>
                <button type="button" aria-pressed={selected === f.number} onClick={() => choose(f.number)}>
                  <span class="finding-number">{f.number}</span>
                  <span class="finding-severity">
                    <span aria-hidden="true">{SEVERITY[f.severity].symbol} </span>
                    {SEVERITY[f.severity].words}
                  </span>
                  <span class="finding-message">{f.message}</span>
                  {f.fixable ? <span class="finding-fix">The print shop can correct this for you.</span> : null}
                </button>
              </li>
            ))}
          </ol>
        ) : file.preflight ? (
          <p class="verdict verdict-pass">Nothing to report.</p>
        ) : null}
        <div class="pages">
          {file.pages.map((p) => (
            <PageView key={p.page} page={p} fileIndex={index} fileName={file.name} selected={selected} onSelect={choose} />
          ))}
        </div>
      </div>
    </section>
  );
}
