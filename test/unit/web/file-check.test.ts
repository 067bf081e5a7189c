/** web/src/file-check.ts: what the New job page refuses before uploading, and the type it announces. */
import { describe, expect, it } from 'vitest';
import { checkFile, HEAD_BYTES, MAX_UPLOAD_BYTES, REFUSED_TYPE, sniff } from '../../../web/src/file-check';
import { MAX_UPLOAD_BYTES as API_MAX_UPLOAD_BYTES } from '../../../lambdas/api/schemas/upload-body';
import { detectFileType } from '../../../lambdas/engine/detect/detect-file-type';
import { onePagePdfBytes } from '../../e2e/support/files';
import { pngBytes } from '../../support/pdf-fixtures';

const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));

describe('the file check before an upload', () => {
  it('allows exactly what POST /uploads allows: 1 byte to 500 MB', () => {
    expect(MAX_UPLOAD_BYTES).toBe(API_MAX_UPLOAD_BYTES);
    const pdf = bytes('%PDF-1.7\n');
    expect(checkFile(MAX_UPLOAD_BYTES, pdf)).toEqual({ ok: true, type: { fileType: 'pdf', mimeType: 'application/pdf' } });
    expect(checkFile(MAX_UPLOAD_BYTES + 1, pdf)).toEqual({ ok: false, problem: 'Too large: the file is 500.0 MB; files can be at most 500.0 MB.' });
    expect(checkFile(600 * 1024 * 1024, pdf)).toEqual({ ok: false, problem: 'Too large: the file is 600.0 MB; files can be at most 500.0 MB.' });
    expect(checkFile(0, new Uint8Array(0))).toEqual({ ok: false, problem: 'Refused: the file is empty (0 bytes).' });
  });

  it('reads the type from the bytes, never the name: a PDF and the raster images every operation takes', async () => {
    expect(sniff((await onePagePdfBytes()).subarray(0, HEAD_BYTES))?.fileType).toBe('pdf');
    // %PDF- after some junk, within the first 1024 bytes, as readers accept it.
    expect(sniff(bytes(`${' '.repeat(1000)}%PDF-1.4`))?.fileType).toBe('pdf');
    expect(sniff(bytes(`${' '.repeat(1100)}%PDF-1.4`))).toBeNull();
    expect(sniff(new Uint8Array(await pngBytes()))).toEqual({ fileType: 'raster', mimeType: 'image/png' });
    expect(sniff(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))?.mimeType).toBe('image/jpeg');
    expect(sniff(bytes('II*\0'))?.mimeType).toBe('image/tiff');
    expect(sniff(bytes('MM\0*'))?.mimeType).toBe('image/tiff');
    expect(sniff(bytes('RIFF\0\0\0\0WEBPVP8 '))?.mimeType).toBe('image/webp');
    expect(sniff(bytes('GIF89a'))?.mimeType).toBe('image/gif');
  });

  it('agrees with the service: what it takes for a PDF or an image is what the service detects as one', async () => {
    for (const head of [await onePagePdfBytes(), new Uint8Array(await pngBytes()), bytes(`junk%PDF-1.3`)]) {
      expect(sniff(head.subarray(0, HEAD_BYTES))?.fileType).toBe((await detectFileType(head)).fileType);
    }
  });

  it('refuses anything else with a sentence that says what it takes', () => {
    for (const head of [bytes('Hello, this is a text file'), bytes('PK\u0003\u0004word/document.xml'), bytes('%!PS-Adobe-3.0 EPSF'), bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')]) {
      expect(checkFile(100, head)).toEqual({ ok: false, problem: REFUSED_TYPE });
    }
    expect(REFUSED_TYPE).toMatch(/not a PDF or an image \(JPEG, PNG, TIFF, WebP or GIF\)/);
  });
});
