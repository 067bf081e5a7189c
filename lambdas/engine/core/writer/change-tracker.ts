/**
 * Which objects of a document changed since they were read: what an
 * incremental update must write. Every object is shown to the tracker when it
 * is first read (`observe`); at save time an object changed when the one now
 * at its reference is another object (a fix replaced it), or the same one
 * serializes differently (a fix edited its dictionary in place). New
 * references are written; references deleted are freed.
 *
 * A stream's contents are not compared, only its dictionary: reading them
 * would read every stream a fix merely looked at. No fix edits a stream's
 * bytes in place (pdf-lib's PDFRawStream.contents is read-only); a fix that
 * changes them builds a new stream, which the identity check sees.
 */
import { createHash } from 'node:crypto';
import { PDFStream, type PDFObject, type PDFRef } from '@cantoo/pdf-lib';
import type { Changes } from './incremental-writer';

interface Seen {
  object: PDFObject;
  fingerprint: string;
}

function fingerprint(object: PDFObject): string {
  const part = object instanceof PDFStream ? object.dict : object;
  const bytes = new Uint8Array(part.sizeInBytes());
  part.copyBytesInto(bytes, 0);
  // The lazy reader's streams read their data through a getter until something assigns it.
  const data = object instanceof PDFStream && Object.getOwnPropertyDescriptor(object, 'contents')?.get ? 'read-on-demand' : '';
  return createHash('sha1').update(bytes).update(data).digest('base64');
}

export class ChangeTracker {
  private readonly seen = new Map<PDFRef, Seen>();
  private readonly deleted = new Set<PDFRef>();

  /** `held`: the objects the document holds now that were read or made (never-read ones are unchanged). */
  constructor(private readonly held: () => Iterable<[PDFRef, PDFObject]>) {}

  /** An object as read from the file; later sightings of the same reference are ignored. */
  observe(ref: PDFRef, object: PDFObject): void {
    if (!this.seen.has(ref)) this.seen.set(ref, { object, fingerprint: fingerprint(object) });
  }

  /** The object first read at a reference, if it was read. */
  original(ref: PDFRef): PDFObject | undefined {
    return this.seen.get(ref)?.object;
  }

  /** A reference the document no longer has. */
  forget(ref: PDFRef): void {
    this.deleted.add(ref);
  }

  changes(): Changes {
    const written: Changes['written'] = [];
    for (const [ref, object] of this.held()) {
      const seen = this.seen.get(ref);
      if (!seen || seen.object !== object || seen.fingerprint !== fingerprint(object)) written.push([ref, object]);
    }
    const present = new Set(written.map(([ref]) => ref));
    const freed = [...this.deleted].filter((ref) => !present.has(ref));
    return { written, freed };
  }
}
