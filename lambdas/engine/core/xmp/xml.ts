/**
 * A small, strict XML 1.0 reader for XMP packets: elements, attributes,
 * character data, CDATA, comments and processing instructions, with namespace
 * resolution. PDF/A requires the packet to be well-formed XML, so anything this
 * reader cannot accept (mismatched tags, unbound prefixes, duplicate attributes,
 * stray `<` or `&`) is reported as an XmlError rather than repaired.
 * DOCTYPE declarations are skipped (XMP packets do not use them).
 */

export interface XmlName {
  /** Namespace URI ('' when the name is in no namespace). */
  ns: string;
  prefix: string;
  local: string;
}

export interface XmlAttribute extends XmlName {
  value: string;
}

export interface XmlElement extends XmlName {
  attributes: XmlAttribute[];
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

export class XmlError extends Error {}

const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';
const NAME = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?$/;

/** Parses a document and returns its root element (throws XmlError when not well-formed). */
export function parseXml(text: string): XmlElement {
  let i = 0;
  const n = text.length;
  let root: XmlElement | null = null;
  // Each open element with the namespace bindings in scope inside it.
  const stack: { el: XmlElement; raw: string; scope: Map<string, string> }[] = [];
  const top = new Map<string, string>([['xml', XML_NS], ['xmlns', XMLNS_NS]]);

  const fail = (what: string): never => {
    throw new XmlError(`${what} (at character ${i})`);
  };

  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) {
      const chunk = text.slice(i, end);
      if (stack.length) stack[stack.length - 1]!.el.children.push(decodeEntities(chunk, fail));
      else if (chunk.trim() !== '' && chunk.replace(/^\uFEFF/, '').trim() !== '') fail('text outside the root element');
      i = end;
      continue;
    }
    if (text.startsWith('<!--', i)) {
      const close = text.indexOf('-->', i + 4);
      if (close < 0) fail('unterminated comment');
      i = close + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const close = text.indexOf(']]>', i + 9);
      if (close < 0) fail('unterminated CDATA section');
      if (!stack.length) fail('CDATA outside the root element');
      stack[stack.length - 1]!.el.children.push(text.slice(i + 9, close));
      i = close + 3;
    } else if (text.startsWith('<?', i)) {
      const close = text.indexOf('?>', i + 2);
      if (close < 0) fail('unterminated processing instruction');
      i = close + 2;
    } else if (text.startsWith('<!DOCTYPE', i)) {
      // Skip the declaration, including an internal subset in brackets.
      let depth = 0;
      let j = i + 9;
      for (; j < n; j++) {
        const c = text[j];
        if (c === '[') depth++;
        else if (c === ']') depth--;
        else if (c === '>' && depth <= 0) break;
      }
      if (j >= n) fail('unterminated DOCTYPE');
      i = j + 1;
    } else if (text[i + 1] === '/') {
      const close = text.indexOf('>', i);
      if (close < 0) fail('unterminated end tag');
      const raw = text.slice(i + 2, close).trim();
      const open = stack.pop();
      if (!open) fail(`end tag </${raw}> without a start tag`);
      if (open!.raw !== raw) fail(`end tag </${raw}> does not match <${open!.raw}>`);
      i = close + 1;
    } else {
      // Start tag: name, attributes, optional '/'.
      let j = i + 1;
      while (j < n && !/[\s/>]/.test(text[j]!)) j++;
      const raw = text.slice(i + 1, j);
      if (!NAME.test(raw)) fail(`malformed element name "${raw}"`);
      const rawAttrs: [string, string][] = [];
      let selfClosing = false;
      for (;;) {
        while (j < n && /\s/.test(text[j]!)) j++;
        if (j >= n) fail('unterminated start tag');
        if (text[j] === '>') {
          j++;
          break;
        }
        if (text.startsWith('/>', j)) {
          selfClosing = true;
          j += 2;
          break;
        }
        const eq = text.indexOf('=', j);
        if (eq < 0) fail('attribute without a value');
        const aname = text.slice(j, eq).trim();
        if (!NAME.test(aname)) fail(`malformed attribute name "${aname}"`);
        let k = eq + 1;
        while (k < n && /\s/.test(text[k]!)) k++;
        const quote = text[k];
        if (quote !== '"' && quote !== "'") fail(`attribute ${aname} value is not quoted`);
        const close = text.indexOf(quote!, k + 1);
        if (close < 0) fail('unterminated attribute value');
        const rawValue = text.slice(k + 1, close);
        if (rawValue.includes('<')) fail(`attribute ${aname} contains "<"`);
        if (rawAttrs.some(([a]) => a === aname)) fail(`duplicate attribute ${aname}`);
        rawAttrs.push([aname, decodeEntities(rawValue, fail).replace(/[\t\n\r]/g, ' ')]);
        j = close + 1;
        if (j < n && !/[\s/>]/.test(text[j]!)) fail('attributes not separated by white space');
      }
      const parentScope = stack.length ? stack[stack.length - 1]!.scope : top;
      let scope = parentScope;
      for (const [a, v] of rawAttrs) {
        if (a === 'xmlns' || a.startsWith('xmlns:')) {
          if (scope === parentScope) scope = new Map(parentScope);
          scope.set(a === 'xmlns' ? '' : a.slice(6), v);
        }
      }
      const resolveName = (q: string, isAttr: boolean): XmlName => {
        const colon = q.indexOf(':');
        const prefix = colon < 0 ? '' : q.slice(0, colon);
        const local = colon < 0 ? q : q.slice(colon + 1);
        if (prefix === '' && isAttr) return { ns: '', prefix, local };
        const ns = scope.get(prefix);
        if (ns === undefined) {
          if (prefix === '') return { ns: '', prefix, local };
          return fail(`namespace prefix "${prefix}" is not bound`);
        }
        return { ns, prefix, local };
      };
      const el: XmlElement = { ...resolveName(raw, false), attributes: [], children: [] };
      const seen = new Set<string>();
      for (const [a, v] of rawAttrs) {
        if (a === 'xmlns' || a.startsWith('xmlns:')) continue;
        const nm = resolveName(a, true);
        const key = `${nm.ns} ${nm.local}`;
        if (seen.has(key)) fail(`duplicate attribute ${a}`);
        seen.add(key);
        el.attributes.push({ ...nm, value: v });
      }
      if (stack.length) stack[stack.length - 1]!.el.children.push(el);
      else if (root) fail('more than one root element');
      else root = el;
      if (!selfClosing) stack.push({ el, raw, scope });
      i = j;
    }
  }
  if (stack.length) fail(`element <${stack[stack.length - 1]!.raw}> is not closed`);
  if (!root) fail('no root element');
  return root!;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(s: string, fail: (what: string) => never): string {
  if (!s.includes('&')) return s;
  return s.replace(/&([^;\s&]*);?/g, (whole, body: string) => {
    if (!whole.endsWith(';')) return fail('"&" not followed by an entity reference');
    if (body.startsWith('#x') || body.startsWith('#X')) return codePoint(parseInt(body.slice(2), 16), fail);
    if (body.startsWith('#')) return codePoint(Number(body.slice(1)), fail);
    const v = ENTITIES[body];
    if (v === undefined) return fail(`unknown entity &${body};`);
    return v;
  });
}

function codePoint(cp: number, fail: (what: string) => never): string {
  if (!Number.isInteger(cp) || cp < 0 || cp > 0x10ffff) return fail('invalid character reference');
  return String.fromCodePoint(cp);
}

/** The text content of an element (its character data, recursively). */
export function textOf(el: XmlElement): string {
  return el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
}

/** Child elements, ignoring character data. */
export function elementsOf(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}
