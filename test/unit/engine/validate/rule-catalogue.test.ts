import { describe, expect, it } from 'vitest';
import { VALIDATE_PROFILES } from '../../../../lambdas/engine/profile-catalogue';
import { rulesFor } from '../../../../lambdas/engine/validate/evaluate';
import { standardProfile, type ConcreteCode } from '../../../../lambdas/engine/validate/profiles';
import { ALL_RULES } from '../../../../lambdas/engine/validate/rules';

const CODES = VALIDATE_PROFILES.map((p) => p.code).filter((c): c is ConcreteCode => c !== 'auto');
const PART_KEYS = ['1', '2', '3', '4', 'ua1', 'ua2'];

describe('the validation rule catalogue', () => {
  it('gives every rule a unique id', () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('gives every rule a clause of a known standard part, numbered as the standard numbers it', () => {
    for (const rule of ALL_RULES) {
      const keys = Object.keys(rule.clauses);
      expect(keys.length, rule.id).toBeGreaterThan(0);
      for (const key of keys) {
        expect(PART_KEYS, `${rule.id}: part ${key}`).toContain(key);
        expect(rule.clauses[key], `${rule.id}: clause for ${key}`).toMatch(/^\d+(\.\d+)*$/);
      }
    }
  });

  it('describes every rule in a sentence for every profile it applies to', () => {
    for (const code of CODES) {
      const p = standardProfile(code);
      for (const rule of rulesFor(p)) {
        const text = typeof rule.description === 'function' ? rule.description(p) : rule.description;
        expect(text.length, `${rule.id} for ${code}`).toBeGreaterThan(20);
        expect(text, `${rule.id} for ${code}`).toMatch(/[.)]$/);
      }
    }
  });

  it('applies rules to every profile, more to the stricter levels of a part', () => {
    const count = (code: ConcreteCode) => rulesFor(standardProfile(code)).length;
    for (const code of CODES) expect(count(code), code).toBeGreaterThan(10);
    expect(count('1a')).toBeGreaterThan(count('1b'));
    expect(count('2a')).toBeGreaterThan(count('2u'));
    expect(count('2u')).toBeGreaterThan(count('2b'));
  });
});
