import { describe, expect, it } from 'vitest';
import { findPreflightProfile, PREFLIGHT_PROFILES } from '../../../../lambdas/engine/profile-catalogue';
import { CHECK_DESCRIPTIONS } from '../../../../lambdas/engine/preflight/check-catalogue';
import { resolveSettings } from '../../../../lambdas/engine/preflight/settings';

const check = (profileId: string, checkId: string) => findPreflightProfile(profileId)!.checks.find((c) => c.id === checkId);
const severityOf = (profileId: string, checkId: string) => check(profileId, checkId)?.severity;

describe('preflight profiles', () => {
  it('are default, the four GWG 2022 print profiles and screen', () => {
    expect(PREFLIGHT_PROFILES.map((p) => p.id)).toEqual(['default', 'gwg-sheetfed-cmyk', 'gwg-digital-print', 'gwg-web-cmyk', 'gwg-newspaper', 'screen']);
  });

  it('list only checks the engine implements, each with its catalogue description, at most once', () => {
    for (const p of PREFLIGHT_PROFILES) {
      const ids = p.checks.map((c) => c.id);
      expect(new Set(ids).size, p.id).toBe(ids.length);
      for (const c of p.checks) expect(c.description).toBe(CHECK_DESCRIPTIONS[c.id as keyof typeof CHECK_DESCRIPTIONS]);
    }
  });

  it('sheetfed CMYK carries the GWG 2022 anchors', () => {
    expect(check('gwg-sheetfed-cmyk', 'images.resolution-low')).toMatchObject({ severity: 'error', thresholds: { min_ppi: 150, min_ppi_1bit: 550, ignore_max_px: 16 } });
    expect(check('gwg-sheetfed-cmyk', 'images.resolution-marginal')).toMatchObject({ severity: 'warn', thresholds: { recommended_ppi: 225, recommended_ppi_1bit: 800 } });
    expect(check('gwg-sheetfed-cmyk', 'lines.thin')).toMatchObject({ severity: 'warn', thresholds: { min_width_pt: 0.25 } });
    expect(check('gwg-sheetfed-cmyk', 'text.small')).toMatchObject({ severity: 'warn', thresholds: { min_size_pt: 8 } });
    expect(check('gwg-sheetfed-cmyk', 'colour.tac')?.thresholds).toEqual({ max_percent: 320 });
    for (const id of ['colour.rgb', 'colour.icc-rgb', 'colour.lab', 'colour.spot', 'fonts.not-embedded', 'boxes.trimbox-missing', 'boxes.inconsistent', 'transparency.group-colour-space', 'overprint.white']) {
      expect(severityOf('gwg-sheetfed-cmyk', id), id).toBe('error');
    }
  });

  it('web CMYK and newspaper change ink limit, small text and (newspaper) resolution', () => {
    expect(check('gwg-web-cmyk', 'colour.tac')?.thresholds).toEqual({ max_percent: 305 });
    expect(check('gwg-web-cmyk', 'text.small')?.thresholds).toEqual({ min_size_pt: 9 });
    expect(check('gwg-newspaper', 'colour.tac')?.thresholds).toEqual({ max_percent: 245 });
    expect(check('gwg-newspaper', 'text.small')?.thresholds).toEqual({ min_size_pt: 10 });
    expect(check('gwg-newspaper', 'images.resolution-low')?.thresholds).toMatchObject({ min_ppi: 100 });
    expect(check('gwg-newspaper', 'images.resolution-marginal')?.thresholds).toMatchObject({ recommended_ppi: 150 });
  });

  it('digital print allows ICC-based RGB images but not DeviceRGB, warns about spot colours and sets no ink limit', () => {
    expect(check('gwg-digital-print', 'images.resolution-low')?.thresholds).toMatchObject({ min_ppi: 96, min_ppi_1bit: 350 });
    expect(check('gwg-digital-print', 'images.resolution-marginal')?.thresholds).toMatchObject({ recommended_ppi: 150, recommended_ppi_1bit: 600 });
    expect(check('gwg-digital-print', 'colour.icc-rgb')).toMatchObject({ severity: 'warn', thresholds: { allow_images: true } });
    expect(severityOf('gwg-digital-print', 'colour.rgb')).toBe('error');
    expect(severityOf('gwg-digital-print', 'colour.spot')).toBe('warn');
    expect(severityOf('gwg-digital-print', 'colour.tac')).toBe('off');
  });

  it('screen accepts RGB, drops the print-only checks and keeps fonts and resolution', () => {
    for (const id of ['colour.rgb', 'colour.tac', 'bleed.insufficient', 'boxes.trimbox-missing', 'overprint.white', 'text.small', 'lines.thin', 'image.rgb']) {
      expect(severityOf('screen', id), id).toBe('off');
    }
    expect(severityOf('screen', 'fonts.not-embedded')).toBe('warn');
    expect(check('screen', 'images.resolution-low')).toMatchObject({ severity: 'warn', thresholds: { min_ppi: 72 } });
  });

  it('rates raster image colour per profile: RGB an error for CMYK print, information for digital, off for screen', () => {
    expect(severityOf('gwg-sheetfed-cmyk', 'image.rgb')).toBe('error');
    expect(severityOf('gwg-digital-print', 'image.rgb')).toBe('info');
    expect(severityOf('default', 'image.rgb')).toBe('info');
    expect(severityOf('screen', 'image.rgb')).toBe('off');
  });

  it('default keeps its original checks as they were', () => {
    const expected: [string, string, Record<string, unknown>?][] = [
      ['pdf.encrypted', 'warn'],
      ['fonts.not-embedded', 'error'],
      ['boxes.trimbox-missing', 'warn'],
      ['boxes.trimbox-outside-mediabox', 'error'],
      ['boxes.bleedbox-outside-mediabox', 'error'],
      ['bleed.insufficient', 'warn', { required_mm: 3 }],
      ['pages.mixed-sizes', 'info', { tolerance_mm: 1 }],
      ['document.javascript', 'warn'],
      ['images.resolution-low', 'error', { min_ppi: 150, min_ppi_1bit: 550 }],
      ['images.resolution-marginal', 'warn', { recommended_ppi: 225, recommended_ppi_1bit: 800 }],
      ['image.resolution-unknown', 'info'],
      ['image.rgb', 'info'],
      ['image.alpha', 'info'],
      ['image.no-icc', 'info'],
      ['artwork.size-mismatch', 'error', { tolerance_mm: 1 }],
      ['artwork.aspect-mismatch', 'warn', { tolerance_mm: 1 }],
      ['document.page-count', 'error'],
    ];
    for (const [id, severity, thresholds] of expected) {
      expect(check('default', id), id).toMatchObject({ severity, ...(thresholds ? { thresholds } : {}) });
    }
  });
});

describe('order context narrows a profile', () => {
  const context = { artworkSize: { width_mm: 210, height_mm: 297 }, pageCount: { min: 2, max: 8 }, bleed: { required_mm: 5 }, safety: { min_mm: 4 }, fileCount: { max: 1 } };

  it('applies artwork size, page count, bleed and safety margin, and shows every threshold applied', () => {
    const s = resolveSettings('gwg-sheetfed-cmyk', context);
    const thresholds = s.runtimeParams.thresholds as Record<string, Record<string, unknown>>;
    expect(thresholds['artwork.size-mismatch']).toEqual({ tolerance_mm: 1, width_mm: 210, height_mm: 297 });
    expect(thresholds['document.page-count']).toEqual({ min: 2, max: 8 });
    expect(thresholds['bleed.insufficient']).toEqual({ required_mm: 5 });
    expect(thresholds['safety.live-content']).toEqual({ min_mm: 4 });
    expect(thresholds['colour.tac']).toEqual({ max_percent: 320 });
    expect(thresholds['text.small']).toEqual({ min_size_pt: 8 });
    expect(s.runtimeParams).toMatchObject({ profileId: 'gwg-sheetfed-cmyk', contextApplied: ['artworkSize', 'pageCount', 'bleed', 'safety'], contextIgnored: ['fileCount'] });
  });

  it('never adds a check: screen has no bleed or safety check, so that context is ignored', () => {
    const s = resolveSettings('screen', context);
    const thresholds = s.runtimeParams.thresholds as Record<string, unknown>;
    expect(thresholds['bleed.insufficient']).toBeUndefined();
    expect(thresholds['safety.live-content']).toBeUndefined();
    expect(s.severity('safety.live-content')).toBe('off');
    expect(s.runtimeParams.contextIgnored).toEqual(['bleed', 'safety', 'fileCount']);
  });

  it('leaves context-only checks inactive without their context, and lists no thresholds of checks that are off', () => {
    const s = resolveSettings('gwg-digital-print', null);
    const thresholds = s.runtimeParams.thresholds as Record<string, unknown>;
    for (const id of ['artwork.size-mismatch', 'document.page-count', 'safety.live-content', 'colour.tac']) expect(thresholds[id], id).toBeUndefined();
    expect(s.severity('safety.live-content')).toBe('off');
  });
});
