import { describe, expect, it } from 'vitest';
import type { JobGraph, StepRecord, StepType, TaskRecord } from '../../../lambdas/domain/model';
import { fixItems, profileIdOf, resolveProfile, validateProfiles } from '../../../lambdas/steps/step-params';

/** The id of the profile a step applies. */
const resolveProfileId = (...args: Parameters<typeof resolveProfile>): string => profileIdOf(resolveProfile(...args));
import { findPreflightProfile } from '../../../lambdas/engine/profile-catalogue';
import { fileAfterSteps, inputFileOf } from '../../../lambdas/steps/task-graph';
import { derivedFileName, fileNameFromUrl, splitFileName, withExtension } from '../../../lambdas/domain/file-names';

function step(index: number, type: StepType, over: Partial<StepRecord> = {}): StepRecord {
  return {
    id: `step_${index}`, jobId: 'job_1', taskId: 'task_1', index, type, status: 'pending', outcome: null, reason: null, params: {},
    runtimeParams: null, started: null, ended: null, duration: null, outputs: [], result: null, resultKey: null, ...over,
  };
}
const source = { kind: 'file' as const, role: 'source' as const, bucket: 'b', key: 'k/source/card.pdf', mimeType: 'application/pdf', sizeBytes: 10, fileName: 'card.pdf' };
const task = { id: 'task_1', originalArtifact: source, currentFile: source } as TaskRecord;
const graphOf = (steps: StepRecord[]): JobGraph => ({ job: {} as JobGraph['job'], tasks: [task], steps, audit: {} });

describe('which profile a step applies', () => {
  it('uses its own profileId first', () => {
    const s = step(1, 'repreflight', { params: { profileId: 'gwg-sheetfed-cmyk' } });
    expect(resolveProfileId(graphOf([step(0, 'preflight', { status: 'done', runtimeParams: { profileId: 'default' } }), s]), s)).toBe('gwg-sheetfed-cmyk');
  });

  it('otherwise reuses the profile the latest finished preflight before it applied', () => {
    const steps = [
      step(0, 'preflight', { status: 'done', runtimeParams: { profileId: 'first' } }),
      step(1, 'repreflight', { status: 'done', runtimeParams: { profileId: 'second' } }),
      step(2, 'autofix'),
      step(3, 'repreflight'),
      step(4, 'preflight', { status: 'done', runtimeParams: { profileId: 'later' } }),
    ];
    expect(resolveProfileId(graphOf(steps), steps[3]!)).toBe('second');
    expect(resolveProfileId(graphOf(steps), steps[2]!)).toBe('second');
  });

  it("falls back to the default profile when nothing says otherwise, ignoring preflights that did not finish", () => {
    const steps = [step(0, 'preflight', { status: 'error', runtimeParams: { profileId: 'x' } }), step(1, 'repreflight')];
    expect(resolveProfileId(graphOf(steps), steps[1]!)).toBe('default');
  });
});

describe("an account's own profile", () => {
  const ads = { ...findPreflightProfile('default')!, id: 'ads', name: 'Ads', base: 'default', version: 2 };

  it('is the definition recorded on the step that names it, never a lookup by id', () => {
    const s = step(0, 'preflight', { params: { profileId: 'ads' }, profile: ads });
    expect(resolveProfile(graphOf([s]), s)).toBe(ads);
  });

  it('reaches autofix and repreflight after it through the preflight that recorded it', () => {
    const steps = [
      step(0, 'preflight', { status: 'done', params: { profileId: 'ads' }, profile: ads, runtimeParams: { profileId: 'ads', profileVersion: 2 } }),
      step(1, 'autofix', { status: 'done', runtimeParams: { profileId: 'ads' } }),
      step(2, 'repreflight', { status: 'done', runtimeParams: { profileId: 'ads', profileVersion: 2 } }),
      step(3, 'autofix'),
    ];
    expect(resolveProfile(graphOf(steps), steps[1]!)).toBe(ads);
    expect(resolveProfile(graphOf(steps), steps[2]!)).toBe(ads);
    expect(resolveProfile(graphOf(steps), steps[3]!)).toBe(ads);
  });
});

describe('reading params leniently', () => {
  it('takes fix items only as a list of ids', () => {
    expect(fixItems(step(0, 'autofix', { params: { items: ['boxes.normalize', '', 3] } }))).toEqual(['boxes.normalize']);
    expect(fixItems(step(0, 'autofix', { params: { items: 'boxes.normalize' } }))).toBeNull();
    expect(fixItems(step(0, 'autofix'))).toBeNull();
  });

  it('takes validate profiles as a code or a list of codes, defaulting to auto', () => {
    expect(validateProfiles(step(0, 'validate', { params: { profile: '2b' } }))).toEqual(['2b']);
    expect(validateProfiles(step(0, 'validate', { params: { profile: ['2b', 'ua1', '2b', 'nope'] } }))).toEqual(['2b', 'ua1']);
    expect(validateProfiles(step(0, 'validate'))).toEqual(['auto']);
    expect(validateProfiles(step(0, 'validate', { params: { profile: 42 } }))).toEqual(['auto']);
  });
});

describe('which file a step works on', () => {
  it('is the source until an autofix before it produced a fixed file, then the latest fixed file', () => {
    const fixed1 = { ...source, role: 'fixed' as const, key: 'k/s1/card-fixed.pdf', fileName: 'card-fixed.pdf' };
    const fixed3 = { ...fixed1, key: 'k/s3/card-fixed.pdf' };
    const steps = [
      step(0, 'preflight', { status: 'done' }),
      step(1, 'autofix', { status: 'done', outcome: 'fixed', outputs: [fixed1] }),
      step(2, 'repreflight'),
      step(3, 'autofix', { status: 'done', outcome: 'fixed', outputs: [fixed3] }),
      step(4, 'previews'),
    ];
    const graph = graphOf(steps);
    expect(inputFileOf(graph, task, steps[0]!)).toBe(source);
    expect(inputFileOf(graph, task, steps[2]!)).toBe(fixed1);
    expect(inputFileOf(graph, task, steps[4]!)).toBe(fixed3);
    expect(fileAfterSteps(task, steps)).toBe(fixed3);
  });
});

describe('download names', () => {
  it('derive from the source name and keep the customer\'s stem', () => {
    expect(derivedFileName('card.pdf', 'fixed')).toBe('card-fixed.pdf');
    expect(derivedFileName('card.final.pdf', 'preflight-report', 'json')).toBe('card.final-preflight-report.json');
    expect(derivedFileName('scan', 'page-2', 'jpg')).toBe('scan-page-2.jpg');
    expect(splitFileName('.hidden')).toEqual({ stem: '.hidden', ext: null });
  });

  it('gain the detected type\'s extension when they have none, and come from a URL\'s last path segment', () => {
    expect(withExtension('upload', 'application/pdf')).toBe('upload.pdf');
    expect(withExtension('photo.png', 'image/jpeg')).toBe('photo.png');
    expect(withExtension('blob', 'application/octet-stream')).toBe('blob');
    expect(fileNameFromUrl('https://shop.example/files/business%20card.pdf?sig=1')).toBe('business card.pdf');
    expect(fileNameFromUrl('https://shop.example/')).toBeNull();
    expect(fileNameFromUrl('https://shop.example/bad%E0%A4%A')).toBe('bad%E0%A4%A');
  });
});
