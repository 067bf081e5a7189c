/**
 * A task's files to download, by what they are: the original, the fixed or optimized file, the
 * reports, and the page images (previews, proofs, thumbnails), which can be many and are folded.
 */
import type { Artifact } from '../api';
import { formatBytes, words } from '../format';

const GROUPS: { title: string; roles: string[]; folded?: boolean }[] = [
  { title: 'Original', roles: ['source'] },
  { title: 'Fixed and optimized files', roles: ['fixed', 'optimized'] },
  { title: 'Reports', roles: ['preflight-report', 'validation-report'] },
  { title: 'Page images', roles: ['preview', 'proof', 'thumbnail'], folded: true },
];

function FileList({ files }: { files: Artifact[] }) {
  return (
    <ul class="downloads">
      {files.map((f) => (
        <li>
          <a href={f.downloadUrl} download={f.fileName} rel="noreferrer">
            {f.fileName}
          </a>{' '}
          <span class="muted">
            ({words(f.role)}
            {f.page !== undefined ? `, page ${f.page}` : ''}, {formatBytes(f.sizeBytes)})
          </span>
        </li>
      ))}
    </ul>
  );
}

export function Downloads({ files }: { files: Artifact[] }) {
  const withLinks = files.filter((f) => f.downloadUrl);
  if (withLinks.length === 0) return <p>No files to download yet.</p>;
  const known = new Set(GROUPS.flatMap((g) => g.roles));
  const groups = [...GROUPS, { title: 'Other files', roles: [...new Set(withLinks.map((f) => f.role).filter((r) => !known.has(r)))] }];
  return (
    <div class="download-groups">
      {groups.map((g) => {
        const list = withLinks.filter((f) => g.roles.includes(f.role));
        if (list.length === 0) return null;
        return g.folded ? (
          <details>
            <summary>
              {g.title} ({list.length})
            </summary>
            <FileList files={list} />
          </details>
        ) : (
          <>
            <h4>{g.title}</h4>
            <FileList files={list} />
          </>
        );
      })}
    </div>
  );
}
