import { PDFContext, PDFDict, PDFHexString, PDFName, PDFNumber, PDFParser, PDFString } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { cipherFactoryFor, fileIdBytes } from '../../../../../lambdas/engine/core/reader/cipher';

describe('fileIdBytes', () => {
  const context = PDFContext.create();
  it('reads the first identifier, and an empty one when /ID is malformed', () => {
    expect([...fileIdBytes(context.obj([PDFHexString.of('0a0b'), PDFHexString.of('0c')]))]).toEqual([10, 11]);
    expect([...fileIdBytes(PDFString.of('ab'))]).toEqual([97, 98]);
    expect(fileIdBytes(context.obj([PDFNumber.of(3)]))).toHaveLength(0);
    expect(fileIdBytes(PDFName.of('X'))).toHaveLength(0);
    expect(fileIdBytes(undefined)).toHaveLength(0);
  });
});

describe('cipherFactoryFor', () => {
  it('puts pdf-lib’s parser back when the password is refused', async () => {
    const original = PDFParser.forBytesWithOptions;
    const context = PDFContext.create();
    const dict = context.obj({ Filter: 'Standard', V: 2, R: 3, Length: 128, P: -4, O: PDFHexString.of('ab'.repeat(32)), U: PDFHexString.of('cd'.repeat(32)) }) as PDFDict;
    await expect(cipherFactoryFor(dict, undefined, '')).rejects.toThrow(/PASSWORD/i);
    expect(PDFParser.forBytesWithOptions).toBe(original);
  });
});
