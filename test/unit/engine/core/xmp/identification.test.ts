import { describe, expect, it } from 'vitest';
import { parseXmpPacket } from '../../../../../lambdas/engine/core/xmp/identification';
import { xmpPacket } from '../../../../support/pdf-fixtures';

describe('XMP reader', () => {
  it('reads PDF/A, PDF/UA, PDF/X claims and dc:title written as attributes and elements', () => {
    const x = parseXmpPacket(xmpPacket({ pdfa: { part: 2, conformance: 'U' }, pdfua: { part: 1 }, pdfx: 'PDF/X-4', title: 'Annual &amp; report' }));
    expect(x.pdfa?.part).toEqual({ value: '2', prefix: 'pdfaid' });
    expect(x.pdfa?.conformance?.value).toBe('U');
    expect(x.pdfua?.part?.value).toBe('1');
    expect(x.pdfxVersion).toBe('PDF/X-4');
    expect(x.dcTitle).toBe('Annual & report');
  });

  it('finds properties under whatever prefix the packet binds to the namespace', () => {
    const xml = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:id="http://www.aiim.org/pdfa/ns/id/"><id:part>3</id:part><id:conformance>B</id:conformance></rdf:Description></rdf:RDF></x:xmpmeta>';
    const x = parseXmpPacket(xml);
    expect(x.pdfa?.part).toEqual({ value: '3', prefix: 'id' });
    expect(x.pdfa?.conformance?.value).toBe('B');
  });

  it('prefers the x-default entry of a language alternative', () => {
    const xml = '<rdf:RDF xmlns:rdf="r" xmlns:dc="http://purl.org/dc/elements/1.1/"><rdf:Description><dc:title><rdf:Alt><rdf:li xml:lang="de">Titel</rdf:li><rdf:li xml:lang="x-default">Title</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF>';
    expect(parseXmpPacket(xml).dcTitle).toBe('Title');
  });

  it('reports packet header attributes PDF/A forbids', () => {
    const xml = '<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d" bytes="1024" encoding="UTF-8"?><x:xmpmeta xmlns:x="adobe:ns:meta/"/>';
    expect(parseXmpPacket(xml).headerAttributes).toEqual(['bytes', 'encoding']);
  });

  it('returns no claims for a packet without identification schemas', () => {
    const x = parseXmpPacket(xmpPacket({ title: 'Only a title' }));
    expect(x.pdfa).toBeNull();
    expect(x.pdfua).toBeNull();
    expect(x.pdfxVersion).toBeNull();
  });
});
