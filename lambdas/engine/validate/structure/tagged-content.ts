/**
 * Real content and artifacts (ISO 14289-1 7.1, ISO 14289-2 8.2.2): everything a
 * page paints is either real content, tagged (inside a marked-content sequence
 * whose MCID the structure tree's ParentTree maps to a structure element), or
 * an artifact (inside an Artifact sequence). The two never nest in each other.
 * What is painted and where is gathered by the marked-content collector.
 */
import { collected } from '../content-pass';
import type { Example, Rule, RuleOutcome } from '../rule';
import { markedContent, type Finding } from './marked-content';

/** Every occurrence of a finding fails; the collector kept a few as examples. */
export function findingOutcome(f: Finding, checked: number): RuleOutcome {
  const failures: Example[] = [...f.examples];
  for (let i = f.examples.length; i < f.count; i++) failures.push(f.examples[f.examples.length - 1] ?? {});
  return { checked: Math.max(checked, f.count), failures };
}

export const TAGGED_CONTENT_RULES: readonly Rule[] = [
  {
    id: 'pdfua.content.tagged-or-artifact',
    clauses: { ua1: '7.1', ua2: '8.2.2' },
    description: 'All content shall be either tagged as real content (belonging to a structure element) or marked as an Artifact.',
    test: (m) => {
      const mc = collected(m, markedContent);
      return findingOutcome(mc.untagged, mc.contentItems);
    },
  },
  {
    id: 'pdfua.content.artifact-in-tagged',
    clauses: { ua1: '7.1' },
    description: 'An Artifact marked-content sequence shall not occur inside tagged content.',
    test: (m) => {
      const mc = collected(m, markedContent);
      return findingOutcome(mc.artifactInTagged, mc.sequences);
    },
  },
  {
    id: 'pdfua.content.tagged-in-artifact',
    clauses: { ua1: '7.1' },
    description: 'Tagged content shall not occur inside an Artifact marked-content sequence.',
    test: (m) => {
      const mc = collected(m, markedContent);
      return findingOutcome(mc.taggedInArtifact, mc.sequences);
    },
  },
];
