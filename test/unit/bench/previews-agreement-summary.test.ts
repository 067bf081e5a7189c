import { describe, expect, it } from 'vitest';
import { verdict } from '../../bench/support/previews-agreement-summary';

describe('verdict', () => {
  it('says met or NOT MET', () => {
    expect(verdict(true)).toBe('met');
    expect(verdict(false)).toBe('NOT MET');
  });
});
