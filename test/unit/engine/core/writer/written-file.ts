/**
 * How the writer tests read back what was written: pdf.js (which follows a
 * file's chain of cross-reference sections from `startxref`, as viewers do,
 * and does not scan the file when the chain is sound) and a check that every
 * in-use entry of every section points at its own `N G obj`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect } from 'vitest';

export async function readWithPdfjs(path: string) {
  const data = new Uint8Array(readFileSync(path));
  const doc = await getDocument({ data, isEvalSupported: false, useSystemFonts: false, verbosity: 0 }).promise;
  return doc;
}

/** Every `n` entry of every classic section points at `N G obj`; returns the section offsets newest first. */
export function expectSoundTables(path: string): number[] {
  const text = readFileSync(path).toString('latin1');
  const sections: number[] = [];
  let at = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(text)![1]);
  while (at > 0) {
    sections.push(at);
    expect(text.slice(at, at + 4)).toBe('xref');
    const end = text.indexOf('trailer', at);
    const lines = text.slice(at + 4, end).trim().split(/\r?\n/).map((l) => l.trim());
    let n = 0;
    for (const line of lines) {
      const sub = /^(\d+) (\d+)$/.exec(line);
      if (sub) { n = Number(sub[1]); continue; }
      const [offset, gen, kind] = line.split(' ');
      if (kind === 'n') expect(text.slice(Number(offset), Number(offset) + 20)).toMatch(new RegExp(`^${n} ${Number(gen)} obj`));
      n++;
    }
    const prev = /\/Prev (\d+)/.exec(text.slice(end, text.indexOf('startxref', end)));
    at = prev ? Number(prev[1]) : 0;
  }
  return sections;
}

/** qpdf --check's exit status: 0 clean, 3 warnings, 2 errors. */
export function qpdfCheck(path: string): number {
  return spawnSync('qpdf', ['--check', path], { encoding: 'utf8' }).status ?? -1;
}

/** qpdf --check-linearization: its exit status and what it printed (a clean file: 0 and "no linearization errors", nothing else). */
export function qpdfCheckLinearization(path: string): { status: number; output: string } {
  const r = spawnSync('qpdf', ['--check-linearization', path], { encoding: 'utf8' });
  return { status: r.status ?? -1, output: `${r.stdout}${r.stderr}`.trim() };
}

/** What pdfinfo (Poppler) says on its `Optimized:` line: `yes` for a file it finds linearized. */
export function pdfinfoOptimized(path: string): string | undefined {
  const r = spawnSync('pdfinfo', [path], { encoding: 'utf8' });
  return /^Optimized:\s*(\S+)/m.exec(r.stdout)?.[1];
}
