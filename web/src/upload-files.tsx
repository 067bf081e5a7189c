/**
 * The files of a new job: dropped onto the drop zone or chosen with the file input (the keyboard's
 * way in), each checked (file-check.ts), uploaded (upload.ts) and listed with its own progress bar,
 * its percentage as text and, when it failed, the reason and a Retry. File names are customer
 * input: they are only ever rendered as text.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { checkFile, HEAD_BYTES } from './file-check';
import { formatBytes } from './format';
import type { FileEntry } from './new-job-request';
import { uploadFile, UploadAborted, type UploadHandle } from './upload';

export interface UploadItem extends FileEntry {
  id: number;
  file: File;
  percent: number;
  error: string | null;
  /** Whether trying again may help (not for a file refused by its size or type). */
  retryable: boolean;
}

let nextId = 1;

/** The list of files and what can be done to it; uploads start as soon as a file is added. */
export function useUploads() {
  const [items, setItems] = useState<UploadItem[]>([]);
  const handles = useRef(new Map<number, UploadHandle>());
  const update = (id: number, change: Partial<UploadItem>) => setItems((all) => all.map((i) => (i.id === id ? { ...i, ...change } : i)));

  const start = async (id: number, file: File) => {
    update(id, { state: 'checking', percent: 0, error: null, fileRef: null });
    const checked = checkFile(file.size, new Uint8Array(await file.slice(0, HEAD_BYTES).arrayBuffer()));
    if (!checked.ok) return update(id, { state: 'failed', error: checked.problem, retryable: false });
    update(id, { state: 'uploading' });
    const handle = uploadFile(file, checked.type, (percent) => update(id, { percent }));
    handles.current.set(id, handle);
    try {
      update(id, { state: 'uploaded', percent: 100, fileRef: await handle.done });
    } catch (e) {
      if (!(e instanceof UploadAborted)) update(id, { state: 'failed', error: (e as Error).message, retryable: true });
    } finally {
      handles.current.delete(id);
    }
  };

  // Leaving the page stops the uploads still under way.
  useEffect(() => () => handles.current.forEach((h) => h.abort()), []);

  return {
    items,
    add(files: Iterable<File>) {
      const added = [...files].map((file): UploadItem => ({ id: nextId++, file, name: file.name, state: 'checking', fileRef: null, percent: 0, error: null, retryable: false }));
      setItems((all) => [...all, ...added]);
      for (const item of added) void start(item.id, item.file);
    },
    remove(id: number) {
      handles.current.get(id)?.abort();
      setItems((all) => all.filter((i) => i.id !== id));
    },
    retry(item: UploadItem) {
      void start(item.id, item.file);
    },
  };
}

/** Where files are dropped, with the file input beside the words for those who do not drag. */
export function DropZone({ onFiles, describedBy }: { onFiles: (files: File[]) => void; describedBy?: string }) {
  const [over, setOver] = useState(false);
  // A file dropped beside the zone must not replace the console with the file.
  useEffect(() => {
    const keep = (e: DragEvent) => e.preventDefault();
    addEventListener('dragover', keep);
    addEventListener('drop', keep);
    return () => {
      removeEventListener('dragover', keep);
      removeEventListener('drop', keep);
    };
  }, []);
  return (
    <div
      class={over ? 'drop-zone drop-over' : 'drop-zone'}
      data-testid="drop-zone"
      onDragEnter={(e) => (e.preventDefault(), setOver(true))}
      onDragOver={(e) => (e.preventDefault(), setOver(true))}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        onFiles([...(e.dataTransfer?.files ?? [])]);
      }}
    >
      <p>
        <span aria-hidden="true">⇩ </span>Drop PDF or image files here (up to 500 MB each), or
      </p>
      <input
        id="file-input"
        class="file-input"
        type="file"
        multiple
        aria-describedby={describedBy}
        onChange={(e) => {
          const input = e.currentTarget;
          onFiles([...(input.files ?? [])]);
          input.value = '';
        }}
      />
      <label for="file-input" class="file-button">
        Choose files
      </label>
    </div>
  );
}

const STATE_WORDS: Record<UploadItem['state'], string> = { checking: 'Checking…', uploading: 'Uploading…', uploaded: '✓ Uploaded', failed: '✕ Not uploaded' };

/** Each file: its name, size, progress bar with the percentage in words, and what went wrong. */
export function UploadList({ items, onRemove, onRetry }: { items: UploadItem[]; onRemove: (id: number) => void; onRetry: (item: UploadItem) => void }) {
  if (items.length === 0) return null;
  return (
    <ul class="uploads" aria-label="Files">
      {items.map((item) => {
        const progressId = `upload-progress-${item.id}`;
        const failed = item.state === 'failed';
        return (
          <li key={item.id} class={`upload upload-${item.state}`} data-upload-state={item.state}>
            {failed ? (
              <span class="upload-name">{item.name}</span>
            ) : (
              <label for={progressId} class="upload-name">
                <span class="visually-hidden">Upload of </span>
                {item.name}
              </label>
            )}
            <span class="muted upload-size">{formatBytes(item.file.size)}</span>
            {failed ? (
              <span class="upload-bar" />
            ) : (
              <span class="upload-bar">
                <progress id={progressId} max={100} value={item.percent} />
                <span class="upload-percent">{item.percent} %</span>
              </span>
            )}
            <span class="upload-state">{STATE_WORDS[item.state]}</span>
            <span class="upload-actions">
              {failed && item.retryable && (
                <button type="button" class="secondary" onClick={() => onRetry(item)} aria-label={`Retry ${item.name}`}>
                  Retry
                </button>
              )}
              <button type="button" class="secondary" onClick={() => onRemove(item.id)} aria-label={`Remove ${item.name}`}>
                Remove
              </button>
            </span>
            {item.error && (
              <p class="error upload-error" role="alert">
                {item.error}
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
