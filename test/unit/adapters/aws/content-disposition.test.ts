import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from '../../../../lambdas/adapters/aws/content-disposition';

/** The two names a Content-Disposition offers: the ASCII fallback and the decoded UTF-8 one. */
function names(value: string): { ascii: string; utf8: string } {
  const m = /^attachment; filename="([^"]*)"; filename\*=UTF-8''(\S+)$/.exec(value);
  if (!m) throw new Error(`not an attachment disposition with both names: ${value}`);
  return { ascii: m[1]!, utf8: decodeURIComponent(m[2]!) };
}

describe('the download disposition of a customer’s file name', () => {
  it('gives an ASCII fallback and the exact UTF-8 name (RFC 6266)', () => {
    expect(attachmentDisposition('card.pdf')).toBe(`attachment; filename="card.pdf"; filename*=UTF-8''card.pdf`);
    expect(attachmentDisposition('Café (1).pdf')).toBe(`attachment; filename="Cafe (1).pdf"; filename*=UTF-8''Caf%C3%A9%20%281%29.pdf`);
    expect(names(attachmentDisposition('見積書.pdf'))).toEqual({ ascii: '___.pdf', utf8: '見積書.pdf' });
  });

  it('offers only the last path segment, whichever separator the name used', () => {
    expect(names(attachmentDisposition('../../../etc/passwd.pdf'))).toEqual({ ascii: 'passwd.pdf', utf8: 'passwd.pdf' });
    expect(names(attachmentDisposition('C:\\Users\\eve\\card.pdf'))).toEqual({ ascii: 'card.pdf', utf8: 'card.pdf' });
    expect(names(attachmentDisposition('card.pdf/..'))).toEqual({ ascii: 'card.pdf', utf8: 'card.pdf' });
    expect(names(attachmentDisposition('/../'))).toEqual({ ascii: 'download', utf8: 'download' });
  });

  it('drops bidirectional controls, so a name displays as what it is', () => {
    // U+202E RIGHT-TO-LEFT OVERRIDE would show "invoice\u202Efdp.exe" as "invoiceexe.pdf".
    expect(names(attachmentDisposition('invoice\u202efdp.exe'))).toEqual({ ascii: 'invoicefdp.exe', utf8: 'invoicefdp.exe' });
    expect(names(attachmentDisposition('\u2066a\u2069\u200e\u200fb\u061c.pdf')).utf8).toBe('ab.pdf');
  });

  it('survives control characters, quotes and broken surrogates', () => {
    expect(names(attachmentDisposition('a"b\r\nc\u0085d\ud800.pdf'))).toEqual({ ascii: 'a_bcd_.pdf', utf8: 'a"bcd\ufffd.pdf' });
    expect(attachmentDisposition('\u0000')).toBe(`attachment; filename="download"; filename*=UTF-8''download`);
  });
});
