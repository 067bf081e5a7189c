/** A PDF/A packet for the metadata rule tests: identification, dc:title and the given extra descriptions. */
export function packet(part: number, conformance: string, extra = '', header = 'begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"'): string {
  return `<?xpacket ${header}?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" pdfaid:part="${part}" pdfaid:conformance="${conformance}"/>
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Proofline fixture</rdf:li></rdf:Alt></dc:title></rdf:Description>
${extra}
</rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>`;
}
