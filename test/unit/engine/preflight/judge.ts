/**
 * Runs one check module's observations through a real profile's settings and
 * the grouping and messages a report uses, so check specs read as findings.
 */
import type { OrderContext } from '../../../../lambdas/domain/model';
import type { CheckId } from '../../../../lambdas/engine/preflight/check-catalogue';
import { groupFindings, type Finding, type Observation } from '../../../../lambdas/engine/preflight/findings';
import { PDF_MESSAGES } from '../../../../lambdas/engine/preflight/pdf-checks';
import { resolveSettings, type PreflightSettings } from '../../../../lambdas/engine/preflight/settings';

export function judge(profileId: string, observe: (settings: PreflightSettings) => Observation<CheckId>[], context: OrderContext | null = null): Finding[] {
  const settings = resolveSettings(profileId, context);
  return groupFindings(
    observe(settings),
    (id) => settings.severity(id),
    (id) => PDF_MESSAGES[id] ?? (() => `no message for ${id}`),
    (id) => settings.fixFor(id),
    settings.checkSequence,
  );
}

/** Findings of one check. */
export const only = (findings: Finding[], checkId: string): Finding[] => findings.filter((f) => f.checkId === checkId);

/** checkId → severity of each finding, in report order. */
export const severities = (findings: Finding[]): [string, string][] => findings.map((f) => [f.checkId, f.severity]);
