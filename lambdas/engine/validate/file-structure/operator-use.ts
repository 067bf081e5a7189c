/**
 * Operators each content stream uses: unknown operators, q/Q nesting depth, compatibility sections (owned by the file-structure area).
 */
import type { ContentCollector } from '../content-pass';

export interface OperatorUseFacts {
  placeholder?: never;
}

export const operatorUse: ContentCollector<OperatorUseFacts> = {
  label: 'operatorUse',
  create: () => ({
    operation() {},
    result: () => ({}),
  }),
};
