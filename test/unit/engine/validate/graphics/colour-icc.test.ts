/**
 * ICCBased colour rules (lambdas/engine/validate/graphics/colour-icc.ts): in
 * PDF/A-4 (6.2.4.2, 6.2.4.4), ICCBased CMYK profiles that repeat the output
 * intent's profile.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { pdfaSpec } from '../../../../support/pdf-fixtures';
import { cmykProfile, colourFailures, iccSpace, ids, spotPage, square, type Page } from './colour-fixtures';

describe('PDF/A-4: ICCBased CMYK profiles and the output intent (6.2.4.2, 6.2.4.4)', () => {
  it('an ICCBased CMYK space whose profile is the output intent profile fails', async () => {
    const page: Page = { content: `/Cs cs 0 0 0 1 sc ${square}`, colourSpaces: (doc, intent) => ({ Cs: iccSpace(doc, intent!) }), intentProfile: cmykProfile() };
    const fs = await colourFailures(pdfaSpec(4), '4', page);
    expect(ids(fs)).toEqual(['pdfa.colour.icc-cmyk-destination']);
    expect(fs[0]).toMatchObject({ clause: '6.2.4.2', examples: [{ page: 1, objectNumber: expect.any(Number), context: expect.stringContaining('identical to the output intent') }] });
  });

  it('a separate copy with the same bytes is the same profile; a different CMYK profile passes', async () => {
    const copy: Page = {
      content: `/Cs cs 0 0 0 1 sc ${square}`,
      colourSpaces: (doc) => ({ Cs: iccSpace(doc, doc.context.register(doc.context.stream(cmykProfile(), { N: 4 }))) }),
      intentProfile: cmykProfile(),
    };
    expect(ids(await colourFailures(pdfaSpec(4), '4', copy))).toEqual(['pdfa.colour.icc-cmyk-destination']);
    const other: Page = { ...copy, colourSpaces: (doc) => ({ Cs: iccSpace(doc, doc.context.register(doc.context.stream(cmykProfile(1), { N: 4 }))) }) };
    expect(ids(await colourFailures(pdfaSpec(4), '4', other))).toEqual([]);
  });

  it('a copy that differs only in the fields the ICC profile ID leaves out (ID, rendering intent, flags) is the same profile', async () => {
    // The intent's copy has a zero profile ID; the colour space's has its ID computed and another rendering intent.
    const withId = cmykProfile();
    withId[67] = 1;
    const digestOf = Uint8Array.from(withId);
    digestOf.fill(0, 44, 48).fill(0, 64, 68).fill(0, 84, 100);
    withId.set(createHash('md5').update(digestOf).digest(), 84);
    const page = (profile: Uint8Array): Page => ({
      content: `/Cs cs 0 0 0 1 sc ${square}`,
      colourSpaces: (doc) => ({ Cs: iccSpace(doc, doc.context.register(doc.context.stream(profile, { N: 4 }))) }),
      intentProfile: cmykProfile(),
    });
    expect(ids(await colourFailures(pdfaSpec(4), '4', page(withId)))).toEqual(['pdfa.colour.icc-cmyk-destination']);
    // A stated ID that is not the digest of these bytes names another profile.
    const otherId = Uint8Array.from(withId);
    otherId[99] ^= 0xff;
    expect(ids(await colourFailures(pdfaSpec(4), '4', page(otherId)))).toEqual([]);
  });

  it('the PDF/A-2 rules allow repeating the output intent profile', async () => {
    const page: Page = { content: `/Cs cs 0 0 0 1 sc ${square}`, colourSpaces: (doc, intent) => ({ Cs: iccSpace(doc, intent!) }), intentProfile: cmykProfile() };
    expect(ids(await colourFailures(pdfaSpec(2, 'b'), '2b', page))).not.toContain('pdfa.colour.icc-cmyk-destination');
  });

  it('an ICCBased alternate of a Separation repeating the output intent profile fails 6.2.4.4', async () => {
    const page = spotPage((doc, intent) => iccSpace(doc, intent!), 4, cmykProfile());
    const fs = await colourFailures(pdfaSpec(4), '4', page);
    expect(fs.find((f) => f.ruleId === 'pdfa.colour.alternate-icc-destination')).toMatchObject({
      clause: '6.2.4.4',
      examples: [{ page: 1, context: expect.stringContaining('identical to the output intent') }],
    });
    const distinct = spotPage((doc) => iccSpace(doc, doc.context.register(doc.context.stream(cmykProfile(2), { N: 4 }))), 4, cmykProfile());
    expect(ids(await colourFailures(pdfaSpec(4), '4', distinct))).not.toContain('pdfa.colour.alternate-icc-destination');
  });
});
