/**
 * The CMap rule of composite fonts (PDF/A-1 6.3.3.3, PDF/A-2/3 6.2.11.3.3,
 * PDF/A-4 6.2.10.3.3, PDF/UA-1 7.21.3.3): a CMap is predefined or embedded, an
 * embedded one states the same WMode in its dictionary and its program, and
 * (PDF/A-2 on) a CMap references only predefined CMaps. Each case is a Type 0
 * font around Liberation Sans whose Encoding is built in code.
 */
import { describe, expect, it } from 'vitest';
import { PDFName, PDFString, type PDFContext, type PDFObject } from '@cantoo/pdf-lib';
import { failures, HI, ids, type0, withFont } from './font-fixtures';

/** An embedded CMap: `program` goes between begincmap and the code space; `dict` adds to the stream dictionary. */
function cmapStream(ctx: PDFContext, cmapName: string, program: string, dict: Record<string, unknown> = {}) {
  return ctx.register(
    ctx.flateStream(
      `%!PS-Adobe-3.0 Resource-CMap\n/CIDInit /ProcSet findresource begin 12 dict begin begincmap ${program}\n/CMapName /${cmapName} def\n1 begincodespacerange <0000> <FFFF> endcodespacerange\n1 begincidrange <0000> <FFFF> 0 endcidrange\nendcmap CMapName currentdict /CMap defineresource pop end end`,
      { Type: 'CMap', CMapName: cmapName, CIDSystemInfo: ctx.obj({ Registry: PDFString.of('Adobe'), Ordering: PDFString.of('Identity'), Supplement: 0 } as never), ...dict } as never,
    ),
  );
}

const withEncoding = (encoding: (ctx: PDFContext) => PDFObject) => (ctx: PDFContext) => type0({ encoding: encoding(ctx) })(ctx);

describe('CMaps are predefined or embedded', () => {
  it('fails a CMap that is neither predefined nor embedded (PDF/A-1 knows only Identity-H and Identity-V)', async () => {
    expect(await ids('2b', await withFont('2b', type0({ encoding: PDFName.of('Custom-H') }), HI))).toContain('fonts.cmaps');
    expect(await ids('1b', await withFont('1b', type0({ encoding: PDFName.of('UniJIS-UCS2-H'), systemInfo: ['Adobe', 'Japan1', 4] }), HI))).toContain('fonts.cmaps');
    expect(await ids('2b', await withFont('2b', type0({ encoding: PDFName.of('UniJIS-UCS2-H'), systemInfo: ['Adobe', 'Japan1', 4] }), HI))).not.toContain('fonts.cmaps');
  });
});

describe('an embedded CMap states one WMode', () => {
  it('fails a program whose WMode differs from the dictionary\'s, and passes one that agrees', async () => {
    const mismatched = withEncoding((ctx) => cmapStream(ctx, 'Test-H', '/WMode 1 def', { WMode: 0 }));
    const r = await failures('ua1', await withFont('ua1', mismatched, HI));
    expect(r.find((x) => x.ruleId === 'fonts.cmaps')).toMatchObject({ clause: '7.21.3.3' });
    expect(await ids('1b', await withFont('1b', mismatched, HI))).toContain('fonts.cmaps');
    const matched = withEncoding((ctx) => cmapStream(ctx, 'Test-H', '/WMode 0 def', { WMode: 0 }));
    expect(await ids('ua1', await withFont('ua1', matched, HI))).not.toContain('fonts.cmaps');
  });

  it('reads the program as PostScript: a commented-out WMode is no definition, and the last definition holds', async () => {
    const commented = withEncoding((ctx) => cmapStream(ctx, 'Test-H', '% /WMode 1 def\n/WMode 0 def'));
    expect(await ids('2b', await withFont('2b', commented, HI))).not.toContain('fonts.cmaps');
    const redefined = (dictWMode: number) => withEncoding((ctx) => cmapStream(ctx, 'Test-V', '/WMode 0 def\n/WMode 1 def', { WMode: dictWMode }));
    expect(await ids('2b', await withFont('2b', redefined(1), HI))).not.toContain('fonts.cmaps');
    expect(await ids('2b', await withFont('2b', redefined(0), HI))).toContain('fonts.cmaps');
  });
});

describe('a CMap references only predefined CMaps (PDF/A-2 and later)', () => {
  const usingEmbedded = (parentName: string, parentWMode = 0) =>
    withEncoding((ctx) => cmapStream(ctx, 'Test-H', '', { UseCMap: cmapStream(ctx, parentName, `/WMode ${parentWMode} def`) }));

  it('passes a UseCMap stream that is an embedded copy of a predefined CMap, and fails one with another name', async () => {
    expect(await ids('2b', await withFont('2b', usingEmbedded('UniJIS-UCS2-H'), HI))).not.toContain('fonts.cmaps');
    const r = await failures('2b', await withFont('2b', usingEmbedded('Custom-H'), HI));
    expect(r.find((x) => x.ruleId === 'fonts.cmaps')).toMatchObject({ clause: '6.2.11.3.3', examples: [expect.objectContaining({ context: expect.stringContaining('Custom-H') })] });
    expect((await failures('4', await withFont('4', usingEmbedded('Custom-H'), HI))).find((x) => x.ruleId === 'fonts.cmaps')).toMatchObject({ clause: '6.2.10.3.3' });
    // PDF/A-1 asks only that referenced CMaps be embedded (or Identity).
    expect(await ids('1b', await withFont('1b', usingEmbedded('Custom-H'), HI))).not.toContain('fonts.cmaps');
  });

  it('fails a referenced CMap given by a name that is not predefined', async () => {
    const byName = (used: string) => withEncoding((ctx) => cmapStream(ctx, 'Test-H', '', { UseCMap: PDFName.of(used) }));
    expect(await ids('2b', await withFont('2b', byName('Custom-H'), HI))).toContain('fonts.cmaps');
    expect(await ids('2b', await withFont('2b', byName('UniJIS-UCS2-H'), HI))).not.toContain('fonts.cmaps');
    expect(await ids('1b', await withFont('1b', byName('UniJIS-UCS2-H'), HI))).toContain('fonts.cmaps');
    expect(await ids('1b', await withFont('1b', byName('Identity-H'), HI))).not.toContain('fonts.cmaps');
  });

  it('judges the WMode of a referenced embedded CMap too', async () => {
    const parentDisagrees = withEncoding((ctx) => cmapStream(ctx, 'Test-H', '', { UseCMap: cmapStream(ctx, 'UniJIS-UCS2-H', '/WMode 1 def') }));
    expect(await ids('2b', await withFont('2b', parentDisagrees, HI))).toContain('fonts.cmaps');
    expect(await ids('1b', await withFont('1b', parentDisagrees, HI))).toContain('fonts.cmaps');
  });

  it('judges the UseCMap entry, not the operand of the program\'s usecmap operator (as veraPDF does)', async () => {
    const programOnly = withEncoding((ctx) => cmapStream(ctx, 'Test-H', '/Custom-H usecmap'));
    expect(await ids('2b', await withFont('2b', programOnly, HI))).not.toContain('fonts.cmaps');
  });
});
