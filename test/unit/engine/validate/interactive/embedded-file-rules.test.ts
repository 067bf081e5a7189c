/**
 * Embedded file rules (lambdas/engine/validate/interactive/embedded-file-rules.ts):
 * embedded files and file attachments of PDF/UA (UA-1 7.11 and 7.18.7, UA-2
 * 8.9.2.4.10).
 */
import { describe, expect, it } from 'vitest';
import { PDFName } from '@cantoo/pdf-lib';
import { pdfuaSpec } from '../../../../support/pdf-fixtures';
import { addAnnot, attachment, embeddedFileSpec, failureOf, fileSpec, text } from './annotation-fixtures';

describe('embedded files and file attachments (PDF/UA)', () => {
  it('requires non-empty F and UF names on every embedded file (UA-1 7.11)', async () => {
    const spec = pdfuaSpec(1, { embeddedFile: attachment });
    expect(await failureOf('pdfua.embedded-files.names', spec, 'ua1')).toBeUndefined();
    const noUF = await failureOf('pdfua.embedded-files.names', spec, 'ua1', (d) => embeddedFileSpec(d).delete(PDFName.of('UF')));
    expect(noUF).toMatchObject({ clause: '7.11', occurrences: 1, examples: [{ context: 'embedded file "notes.txt" lacks a non-empty UF' }] });
    // An empty name tells a reader nothing: it counts as missing.
    const emptyF = await failureOf('pdfua.embedded-files.names', spec, 'ua1', (d) => embeddedFileSpec(d).set(PDFName.of('F'), text('')));
    expect(emptyF?.examples[0]?.context).toMatch(/lacks a non-empty F$/);
  });

  it('requires an AFRelationship in the file specification of a FileAttachment annotation (UA-2 8.9.2.4.10)', async () => {
    const withRelationship = await failureOf('pdfua.file-attachments.relationship', pdfuaSpec(2), 'ua2', (d) =>
      addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d, { AFRelationship: PDFName.of('Supplement') }) }),
    );
    expect(withRelationship).toBeUndefined();
    const without = await failureOf('pdfua.file-attachments.relationship', pdfuaSpec(2), 'ua2', (d) => addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d) }));
    expect(without).toMatchObject({
      clause: '8.9.2.4.10',
      occurrences: 1,
      examples: [{ page: 1, objectNumber: expect.any(Number), context: 'FileAttachment annotation: file specification has no AFRelationship' }],
    });
  });

  it('requires non-empty F and UF in the file specification of a FileAttachment annotation (UA-1 7.18.7)', async () => {
    const named = await failureOf('pdfua.file-attachments.names', pdfuaSpec(1), 'ua1', (d) => addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d) }));
    expect(named).toBeUndefined();
    const unnamed = await failureOf('pdfua.file-attachments.names', pdfuaSpec(1), 'ua1', (d) =>
      addAnnot(d, { Subtype: 'FileAttachment', Contents: text('Notes'), FS: fileSpec(d, { UF: undefined, F: text('') }) }),
    );
    expect(unnamed).toMatchObject({ clause: '7.18.7', occurrences: 1, examples: [{ page: 1, context: 'FileAttachment annotation: file specification lacks a non-empty F or UF' }] });
  });
});
