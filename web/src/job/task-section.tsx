/**
 * One file of a job: its state and steps, its pages with the findings framed on them, the
 * validation results, "Fix it" (or, for a task that was fixed in this job, its before and after),
 * the downloads and the audit log as a timeline.
 */
import { Badge } from '../badge';
import { ProgressBar } from '../progress-bar';
import { formatTime, words } from '../format';
import { BeforeAfter, type Side } from './before-after';
import { startPreviewsJob, useCompanionJob } from './companion-jobs';
import { Downloads } from './downloads';
import type { FixCatalogue } from './fix-catalogue';
import { FixIt } from './fix-it';
import { reportsOf, type JobDetail, type TaskDetail } from './job-detail';
import { PageInspector } from './page-inspector';
import { ownPreviews, type PageImages } from './page-images';
import { ValidationResults } from './validation';

const SHOWS_PAGES = new Set(['pdf', 'raster']);

/** The original's page images: the job's own, else those of a previews job the page starts (companion-jobs.ts). */
function useOriginalImages(job: JobDetail, task: TaskDetail): { images: PageImages | null; note: string } {
  const own = ownPreviews(task, 'original');
  const wanted = own === null && task.status === 'done' && SHOWS_PAGES.has(task.fileType ?? '') && task.originalArtifact !== null;
  const previews = useCompanionJob('previews', task.id, () => startPreviewsJob(job, task), wanted);
  if (own) return { images: own, note: 'This page was not rendered (previews cover the first 50 pages).' };
  if (!SHOWS_PAGES.has(task.fileType ?? '')) return { images: null, note: 'This kind of file has no pages to show.' };
  if (previews.error) return { images: null, note: `No page images: ${previews.error}` };
  const pj = previews.job;
  if (!pj || (pj.status !== 'done' && pj.status !== 'error')) return { images: null, note: task.status === 'done' ? 'Rendering the pages…' : 'The pages are shown once the file has been read.' };
  const images = pj.tasks[0] ? ownPreviews(pj.tasks[0], 'original') : null;
  return { images, note: images ? 'This page was not rendered (previews cover the first 50 pages).' : `No page images: ${pj.tasks[0]?.reason ?? 'the pages could not be rendered.'}` };
}

export function TaskSection({ job, task, index, fixes }: { job: JobDetail; task: TaskDetail; index: number; fixes: FixCatalogue }) {
  const files = [...(task.originalArtifact ? [task.originalArtifact] : []), ...(task.outputArtifacts ?? [])];
  const headingId = `task-${index}`;
  const idPrefix = `t${index}`;
  const { first, last } = reportsOf(job, task.id);
  const original = useOriginalImages(job, task);
  const fixedHere = (task.steps ?? []).some((s) => s.type === 'autofix');
  const validations = (job.results?.validate ?? []).filter((v) => v.taskId === task.id);
  const before: Side = { report: first, images: original.images, note: original.note };
  const label = task.name ?? task.source;
  return (
    <section class="task" aria-labelledby={headingId} data-task-id={task.id}>
      <h2 id={headingId}>{task.source}</h2>
      <p>
        <Badge value={task.status} label="Status" /> <Badge value={task.outcome} label="Outcome" />
        {task.fileType && <span class="muted"> {task.fileType}</span>}
        {first && <span class="muted"> · profile {first.profile.name}</span>}
      </p>
      <ProgressBar progress={task.progress} label={`Progress of ${task.source}`} />
      {task.reason && <p class="reason">{task.reason}</p>}
      <h3>Steps</h3>
      <ol class="steps">
        {(task.steps ?? []).map((s) => (
          <li>
            {words(s.type)}: <Badge value={s.status} label="Status" /> <Badge value={s.outcome} label="Outcome" />
            {s.reason && <span class="reason"> {s.reason}</span>}
          </li>
        ))}
      </ol>
      {(first || original.images) && (
        <>
          <h3>Pages and findings</h3>
          <PageInspector idPrefix={idPrefix} fileLabel={label} report={first} images={original.images} imagesNote={original.note} fixes={fixes} />
        </>
      )}
      {validations.length > 0 && (
        <>
          <h3>Validation</h3>
          {validations.map((v) => (
            <ValidationResults profiles={v.profiles} />
          ))}
        </>
      )}
      {first && task.fileType === 'pdf' && (
        <>
          <h3>{fixedHere ? 'Before and after fixing' : 'Fix it'}</h3>
          {fixedHere ? (
            <BeforeAfter
              idPrefix={idPrefix}
              fileLabel={label}
              before={before}
              after={{ report: last, images: ownPreviews(task, 'changed'), note: 'This job rendered no images of the fixed file.' }}
              autofix={(job.results?.autofix ?? []).find((a) => a.taskId === task.id) ?? null}
              fixes={fixes}
            />
          ) : (
            <FixIt job={job} task={task} report={first} before={before} fixes={fixes} idPrefix={idPrefix} fileLabel={label} />
          )}
        </>
      )}
      <h3>Downloads</h3>
      <Downloads files={files} />
      <h3>Audit log</h3>
      <ol class="timeline">
        {(task.audit ?? []).map((a) => (
          <li>
            <time dateTime={a.at}>{formatTime(a.at)}</time> <span class="muted">{a.event}</span> {a.message}
          </li>
        ))}
      </ol>
    </section>
  );
}
