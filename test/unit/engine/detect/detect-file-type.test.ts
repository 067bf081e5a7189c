import { describe, expect, it } from 'vitest';
import { detectFileType, DETECTION_HEAD_BYTES } from '../../../../lambdas/engine/detect/detect-file-type';
import { looksLikeSvg } from '../../../../lambdas/engine/detect/svg-sniff';
import * as F from '../../../support/pdf-fixtures';

const head = (b: Uint8Array) => b.subarray(0, DETECTION_HEAD_BYTES);

describe('detectFileType', () => {
  const table: [string, () => Promise<Uint8Array> | Uint8Array, string, string][] = [
    ['a PDF', () => F.buildPdf(), 'pdf', 'application/pdf'],
    ['a PDF with junk before its header (within 1024 bytes)', async () => Buffer.concat([Buffer.alloc(700, 0x20), await F.buildPdf()]), 'pdf', 'application/pdf'],
    ['a PNG', () => F.pngBytes(), 'raster', 'image/png'],
    ['a JPEG', () => F.jpegBytes(), 'raster', 'image/jpeg'],
    ['a CMYK JPEG', () => F.jpegBytes({ cmyk: true }), 'raster', 'image/jpeg'],
    ['a TIFF', () => F.tiffBytes(), 'raster', 'image/tiff'],
    ['a WebP', () => F.webpBytes(), 'raster', 'image/webp'],
    ['a GIF', () => F.gifBytes(), 'raster', 'image/gif'],
    ['a bare SVG', () => F.svgText('plain'), 'vector', 'image/svg+xml'],
    ['an SVG with an XML declaration', () => F.svgText('xml-declaration'), 'vector', 'image/svg+xml'],
    ['an SVG with BOM, comment and DOCTYPE', () => F.svgText('bom-comment-doctype'), 'vector', 'image/svg+xml'],
    ['an EPS file', () => F.epsBytes(), 'vector', 'application/postscript'],
    ['a DOCX', () => F.officeOpenXmlBytes('docx'), 'office', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['an XLSX', () => F.officeOpenXmlBytes('xlsx'), 'office', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['a PPTX', () => F.officeOpenXmlBytes('pptx'), 'office', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    ['an ODT', () => F.openDocumentBytes('odt'), 'office', 'application/vnd.oasis.opendocument.text'],
    ['an ODS', () => F.openDocumentBytes('ods'), 'office', 'application/vnd.oasis.opendocument.spreadsheet'],
    ['an ODP', () => F.openDocumentBytes('odp'), 'office', 'application/vnd.oasis.opendocument.presentation'],
    ['a legacy Word file (CFB)', () => F.cfbBytes('WordDocument'), 'office', 'application/msword'],
    ['a legacy Excel file (CFB)', () => F.cfbBytes('Workbook'), 'office', 'application/vnd.ms-excel'],
    ['an RTF document', () => F.rtfBytes(), 'office', 'application/rtf'],
    ['a plain zip', () => F.zipBytes([{ name: 'notes.txt', data: 'hello' }]), 'archive', 'application/zip'],
    ['a gzip file', () => F.gzipBytes(), 'archive', 'application/gzip'],
    ['a tar archive', () => F.tarBytes(), 'archive', 'application/x-tar'],
    ['a 7z archive', () => F.magicBytes('7z'), 'archive', 'application/x-7z-compressed'],
    ['a RAR archive', () => F.magicBytes('rar'), 'archive', 'application/x-rar-compressed'],
    ['a bzip2 file', () => F.magicBytes('bz2'), 'archive', 'application/x-bzip2'],
    ['an xz file', () => F.magicBytes('xz'), 'archive', 'application/x-xz'],
    ['a TrueType font', () => F.ttfBytes(), 'font', 'font/ttf'],
    ['an OpenType font', () => F.magicBytes('otf'), 'font', 'font/otf'],
    ['a WOFF font', () => F.magicBytes('woff'), 'font', 'font/woff'],
    ['a WOFF2 font', () => F.magicBytes('woff2'), 'font', 'font/woff2'],
    ['a BMP image (not a contract raster type)', () => F.magicBytes('bmp'), 'other', 'application/octet-stream'],
    ['plain text', () => Buffer.from('hello world, not a document'), 'other', 'application/octet-stream'],
    ['XML that is not SVG', () => Buffer.from('<?xml version="1.0"?><invoice/>'), 'other', 'application/octet-stream'],
    ['an empty file', () => new Uint8Array(0), 'other', 'application/octet-stream'],
  ];

  for (const [what, build, fileType, mimeType] of table) {
    it(`classifies ${what} as ${fileType} (${mimeType})`, async () => {
      expect(await detectFileType(head(await build()))).toEqual({ fileType, mimeType });
    });
  }
});

describe('looksLikeSvg', () => {
  it('accepts a namespaced root element', () => {
    expect(looksLikeSvg(Buffer.from('<svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>'))).toBe(true);
  });
  it('accepts a DOCTYPE with an internal subset', () => {
    expect(looksLikeSvg(Buffer.from('<!DOCTYPE svg [ <!ENTITY a "b"> ]>\n<svg></svg>'))).toBe(true);
  });
  it('accepts UTF-16 with a byte-order mark', () => {
    expect(looksLikeSvg(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<svg/>', 'utf16le')]))).toBe(true);
  });
  it('rejects a document whose root is another element', () => {
    expect(looksLikeSvg(Buffer.from('<html><svg/></html>'))).toBe(false);
    expect(looksLikeSvg(Buffer.from('<svgx/>'))).toBe(false);
  });
  it('rejects an unterminated comment or binary data', () => {
    expect(looksLikeSvg(Buffer.from('<!-- never ends <svg/>'))).toBe(false);
    expect(looksLikeSvg(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x00, 0x01]))).toBe(false);
  });
});
