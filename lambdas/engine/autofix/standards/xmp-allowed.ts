/**
 * Which properties of an XMP packet PDF/A rejects, judged with the helpers
 * the validator's rules use (core/xmp): a property whose value does not
 * have the type its schema gives it (pdfa.metadata.value-types), and one that
 * neither a predefined schema of the edition nor an extension schema of the
 * packet defines (pdfa.metadata.defined-properties and
 * pdfa.metadata.extension-schema-missing).
 *
 * The type a property must have comes from the lookup the rules use
 * (declaredPropertyType), and whether a value fits it from typeProblem, so the
 * fix and the validator cannot disagree. For the catalog's own packet the
 * structure types are the packet's extension schemas (as the rules'
 * contextFor gives them for that packet).
 */
import { declaredPropertyType, extensionDefinitions } from '../../core/xmp/extension-schemas';
import type { Edition } from '../../core/xmp/schemas';
import { typeProblem, type TypeContext } from '../../core/xmp/value-types';
import { qname, type XmpPacket, type XmpProperty } from '../../core/xmp/xmp-model';

/** PDF/A-1 refers to the XMP Specification of 2004, later parts to that of 2005 (as the rules do). */
export const editionForPart = (part: number): Edition => (part === 1 ? '2004' : '2005');

export interface DisallowedProperty {
  property: XmpProperty;
  /** Why PDF/A rejects it, in the validator's words. */
  reason: string;
}

/**
 * The top-level properties of the catalog's packet that the PDF/A property rules
 * reject. The identification schema (pdfaid) has its own rule and is never listed.
 */
export function disallowedProperties(packet: XmpPacket, edition: Edition): DisallowedProperty[] {
  const defs = extensionDefinitions(packet);
  const ctx: TypeContext = { edition, custom: defs.types };
  const out: DisallowedProperty[] = [];
  for (const p of packet.properties) {
    const type = declaredPropertyType(defs, null, p, edition);
    if (type === 'pdfaid') continue;
    if (type === null) {
      out.push({ property: p, reason: `${qname(p)} (${p.ns}) is neither predefined nor described by an extension schema` });
      continue;
    }
    const problem = typeProblem(p.node, type, ctx);
    if (problem) out.push({ property: p, reason: `${qname(p)} (${type}) ${problem}` });
  }
  return out;
}
