/**
 * PDFs whose encryption protects only their attachments (PDF 2.0 /AuthEvent
 * /EFOpen: an Encrypt dictionary whose /StmF and /StrF are /Identity and whose
 * /EFF names a real crypt filter). Their pages are plain text and readers
 * open them without a password; pdfjs asks for one all the same, as soon as
 * it meets the Encrypt dictionary.
 *
 * For rendering, such a file is given to pdfjs again without the Encrypt
 * entry in its trailer: every page stream and string is then read as what it
 * is, unencrypted. Only the attachments stay unreadable, and previews do not
 * show attachments. A file whose streams or strings are encrypted is left
 * alone (null): it needs its password.
 *
 * pdf-lib is loaded here only when pdfjs has asked for a password, so the
 * render threads do not carry it otherwise.
 */
export async function withoutAttachmentOnlyEncryption(bytes: Uint8Array): Promise<Uint8Array | null> {
  const { PDFDict, PDFDocument, PDFName } = await import('@cantoo/pdf-lib');
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false }).catch(() => null);
  if (!doc) return null;
  const { context } = doc;
  const encrypt = context.lookupMaybe(context.trailerInfo.Encrypt, PDFDict);
  if (!encrypt) return null;
  const filter = (key: string) => encrypt.lookupMaybe(PDFName.of(key), PDFName)?.asString();
  // Crypt filters (/StmF, /StrF) exist from V 4 on; before, everything is encrypted.
  const version = encrypt.lookup(PDFName.of('V'));
  if (!(Number(version?.toString()) >= 4)) return null;
  // An absent /StmF or /StrF means /Identity (PDF 32000-2, 7.6.5).
  if ((filter('StmF') ?? '/Identity') !== '/Identity' || (filter('StrF') ?? '/Identity') !== '/Identity') return null;
  context.trailerInfo.Encrypt = undefined;
  return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}
