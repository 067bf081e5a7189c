import { describe, expect, it } from 'vitest';
import { damageOf, inPdfaPrepareScope, summariseFixes, summarisePdfa, type FixFileOutcome } from '../../bench/support/autofix-summary';

const finding = (checkId: string, fixId: string | null = 'boxes.normalize') => ({ checkId, fixId, count: 1 });
const clean = { status: 0, issues: 0 };
const done = (o: Partial<FixFileOutcome>): FixFileOutcome => ({ file: 'a.pdf', status: 'done', changed: true, before: [], after: [], applied: [], text: null, appearance: null, qpdf: null, ...o });

describe('bench:autofix figures', () => {
  it('counts a fixable finding gone only when its check no longer reports after a fix that changed the file', () => {
    const s = summariseFixes([
      done({ file: 'a.pdf', before: [finding('boxes.trimbox-missing'), finding('fonts.not-embedded', null)], after: [finding('fonts.not-embedded', null)] }),
      done({ file: 'b.pdf', before: [finding('document.javascript', 'actions.remove')], after: [finding('document.javascript', 'actions.remove')] }),
      done({ file: 'c.pdf', changed: false, before: [finding('boxes.trimbox-missing')], after: null }),
      { file: 'd.pdf', status: 'crash', detail: 'RangeError', before: undefined },
    ]);
    // fonts.not-embedded has no fix: not counted. b and c keep theirs.
    expect(s).toMatchObject({ files: 4, fixable: 3, gone: 1, crashes: 1, changed: 2 });
    expect(s.remaining).toEqual([
      { checkId: 'document.javascript', count: 1, files: ['b.pdf'] },
      { checkId: 'boxes.trimbox-missing', count: 1, files: ['c.pdf'] },
    ]);
  });

  it('counts the fixable findings that appear only after the fix, and findings whose fix said there was nothing to change', () => {
    const s = summariseFixes([
      // boxes.normalize gave the page a TrimBox; now the page lacks bleed, which bleed.mirror could add.
      done({ file: 'a.pdf', rounds: 1, before: [finding('boxes.trimbox-missing')], after: [finding('bleed.insufficient', 'bleed.mirror')] }),
      // The check still reports rich black text that its fix found nothing to change in.
      done({
        file: 'b.pdf',
        rounds: 2,
        before: [finding('text.rich-black', 'color.richblack-small-text-to-k'), finding('document.javascript', 'actions.remove')],
        after: [finding('text.rich-black', 'color.richblack-small-text-to-k')],
        skipped: [{ fixId: 'color.richblack-small-text-to-k', reason: 'Nothing to change: the file already meets what this fix ensures.' }],
      }),
      // A finding there before and after is not new; a finding without a fix is not counted.
      done({ file: 'c.pdf', rounds: 1, before: [finding('bleed.insufficient', 'bleed.mirror')], after: [finding('bleed.insufficient', 'bleed.mirror'), finding('fonts.not-embedded', null)] }),
    ]);
    expect(s.appearedCount).toBe(1);
    expect(s.appeared).toEqual([{ checkId: 'bleed.insufficient', count: 1, files: ['a.pdf'] }]);
    expect(s.disagreements).toEqual([{ checkId: 'text.rich-black', fixId: 'color.richblack-small-text-to-k', count: 1, files: ['b.pdf'] }]);
    expect(s.rounds).toEqual([0, 2, 1]);
  });

  it('calls a fixed file damaged when qpdf rates it worse, its text shrank, or it prints differently inside the TrimBox', () => {
    expect(damageOf(done({ qpdf: { before: clean, after: clean }, text: { before: 10, after: 10 } }))).toBeNull();
    expect(damageOf(done({ qpdf: { before: clean, after: { status: 3, issues: 1 } } }))).toMatch(/^qpdf --check: 0 issues \(exit 0\) before, 1 \(exit 3\) after$/);
    expect(damageOf(done({ qpdf: { before: { status: 3, issues: 2 }, after: { status: 3, issues: 3 } } }))).toMatch(/2 issues \(exit 3\) before, 3 \(exit 3\) after/);
    // From unreadable (errors) to readable with warnings is not damage, even with more lines.
    expect(damageOf(done({ qpdf: { before: { status: 2, issues: 4 }, after: { status: 3, issues: 5 } } }))).toBeNull();
    expect(damageOf(done({ text: { before: 120, after: 80 } }))).toBe('extractable text shrank from 120 to 80 characters');
    // Hidden layers' text goes with layers.flatten; the pages print exactly as before.
    const same = [{ page: 1, rmse: 0, changedShare: 0, sizeChanged: false }];
    expect(damageOf(done({ applied: [{ fixId: 'layers.flatten', count: 3 }], text: { before: 120, after: 80 }, appearance: same }))).toBeNull();
    // …but not when the printing was not compared.
    expect(damageOf(done({ applied: [{ fixId: 'layers.flatten', count: 3 }], text: { before: 120, after: 80 }, appearance: null }))).toMatch(/shrank/);
    // Beside a fix that may change appearance, layers.flatten alone on the original is the measure: the text it
    // removes while printing the same may go, no more (issue11144_reduced: its only text is in a hidden layer).
    const beside = (layersOnly: FixFileOutcome['layersOnly']) =>
      damageOf(done({ applied: [{ fixId: 'bleed.mirror', count: 1 }, { fixId: 'layers.flatten', count: 3 }], text: { before: 120, after: 80 }, appearance: null, layersOnly }));
    expect(beside({ text: 80, appearance: same })).toBeNull();
    expect(beside({ text: 90, appearance: same })).toBe('extractable text shrank from 120 to 80 characters (90 without the hidden layers)');
    expect(beside({ text: 80, appearance: [{ page: 1, rmse: 0.05, changedShare: 0.02, sizeChanged: false }] })).toMatch(/shrank from 120 to 80 characters$/);
    expect(beside({ text: 80, appearance: null })).toMatch(/shrank/);
    expect(damageOf(done({ applied: [{ fixId: 'bleed.mirror', count: 1 }], text: { before: 120, after: 80 }, layersOnly: { text: 80, appearance: same } }))).toMatch(/shrank/);
    expect(damageOf(done({ appearance: [{ page: 1, rmse: 0, changedShare: 0, sizeChanged: false }, { page: 2, rmse: 0.05, changedShare: 0.02, sizeChanged: false }] }))).toMatch(/page 2 \(RMSE 0\.050\)/);
    expect(damageOf({ file: 'x.pdf', status: 'timeout', detail: 'no answer within 120 s' })).toBe('autofix timeout: no answer within 120 s');
    // A file refused with a reason (password, not a PDF) was not damaged by anyone.
    expect(damageOf({ file: 'x.pdf', status: 'refused', detail: 'needs a password' })).toBeNull();
    // Nothing changed: nothing can be damaged.
    expect(damageOf(done({ changed: false, text: { before: 10, after: 0 } }))).toBeNull();
  });

  it('puts metadata, trailer, output intent, actions and annotation flags in pdfa.prepare\'s scope, and fonts or colour out of it', () => {
    for (const id of ['pdfa.metadata.present', 'pdfa.trailer.id', 'pdfa.output-intent.profile', 'pdfa.actions.types', 'pdfa.annotations.flags', 'pdfa.annotations.flags-present', 'pdfa.file.header']) expect(inPdfaPrepareScope(id), id).toBe(true);
    for (const id of ['pdfa.fonts.embedded', 'pdfa.colour.device-rgb', 'pdfa.annotations.types', 'pdfa.file.headers']) expect(inPdfaPrepareScope(id), id).toBe(false);
  });

  it('counts in-scope PDF/A failures gone, files made compliant, and rules a fix broke', () => {
    const s = summarisePdfa([
      { file: 'a.pdf', profile: '2b', status: 'done', before: ['pdfa.metadata.present', 'pdfa.trailer.id'], after: [], compliantAfter: true },
      { file: 'b.pdf', profile: '2b', status: 'done', before: ['pdfa.metadata.present', 'pdfa.fonts.embedded'], after: ['pdfa.fonts.embedded'], compliantAfter: false },
      { file: 'c.pdf', profile: '1b', status: 'done', before: ['pdfa.output-intent.profile'], after: ['pdfa.output-intent.profile', 'pdfa.metadata.info-consistency'], compliantAfter: false },
      { file: 'd.pdf', profile: '1b', status: 'crash', detail: 'boom' },
    ]);
    expect(s).toMatchObject({ files: 4, failed: 1, inScopeFailures: 4, inScopeGone: 3, onlyInScopeFiles: 2, onlyInScopeCompliant: 1 });
    expect(s.remaining).toEqual([{ ruleId: 'pdfa.output-intent.profile', count: 1 }]);
    expect(s.regressions).toEqual([{ file: 'c.pdf', ruleIds: ['pdfa.metadata.info-consistency'] }]);
  });
});
