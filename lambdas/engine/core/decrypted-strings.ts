/**
 * Keeps decrypted literal strings well-formed. pdf-lib stores a literal string
 * as it is written between its parentheses (escapes included) and reads its
 * bytes by undoing the escapes; when it decrypts a file, though, it stores the
 * decrypted bytes as they are. A decrypted string holding `(`, `)`, `\` or a
 * carriage return then means something else: its bytes are misread, and saved
 * again it is written unescaped, so an unbalanced `)` ends the string early and
 * the rest of the object turns to junk (realworld/pdfjs/bug900822.pdf, RC4: a
 * CIDFont's /Registry decrypts to bytes ending in `)`; after autofix qpdf
 * --check reported "unexpected )" in that font where the original was clean).
 *
 * pdf-lib's object parser is wrapped once per process: a literal string it has
 * just decrypted is stored escaped, which is what every other string holds.
 * Parsers without decryption (every unencrypted file, and objects inside
 * object streams, which are decrypted as part of their stream) are untouched.
 */
import { PDFObjectParser, PDFString, type PDFRef } from '@cantoo/pdf-lib';

let installed = false;

/** The literal-string form of raw bytes (one char per byte): the four characters that would change meaning, escaped. */
export function escapeLiteral(raw: string): string {
  let out = '';
  for (const ch of raw) {
    if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else if (ch === '\r') out += '\\r';
    else if (ch === '\n') out += '\\n';
    else out += ch;
  }
  return out;
}

interface DecryptingParser {
  cryptoFactory?: unknown;
  parseString(ref?: PDFRef): PDFString;
}

export function installDecryptedStringEscaping(): void {
  if (installed) return;
  installed = true;
  const proto = PDFObjectParser.prototype as unknown as DecryptingParser;
  const parseString = proto.parseString;
  proto.parseString = function (this: DecryptingParser, ref?: PDFRef): PDFString {
    const parsed = parseString.call(this, ref);
    // The same condition under which pdf-lib decrypts the string.
    return this.cryptoFactory && ref ? PDFString.of(escapeLiteral(parsed.asString())) : parsed;
  };
}
