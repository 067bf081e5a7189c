/**
 * "Fix it": runs the fixes the report recommends on the same file (companion-jobs.ts says how)
 * and, once done, shows the original and the fixed file before and after, page by page, with the
 * findings that remain and the fixed file to download.
 */
import { Badge } from '../badge';
import type { PreflightReport } from '../findings/report';
import { BeforeAfter, type Side } from './before-after';
import { startFixJob, useCompanionJob } from './companion-jobs';
import type { FixCatalogue } from './fix-catalogue';
import { reportsOf, type JobDetail, type TaskDetail } from './job-detail';
import { ownPreviews } from './page-images';

export function FixIt(props: { job: JobDetail; task: TaskDetail; report: PreflightReport; before: Side; fixes: FixCatalogue; idPrefix: string; fileLabel: string }) {
  const { job, task, report, fixes } = props;
  const fix = useCompanionJob('fix', task.id, () => startFixJob(job, task, report.profile.id), false);
  const fixJob = fix.job;
  const fixTask = fixJob?.tasks[0] ?? null;
  const fixable = report.recommendedFixes.length > 0;

  if (!fix.started) {
    return (
      <div class="fix-it">
        {fixable ? (
          <p>
            Fixing would apply: {report.recommendedFixes.map((id) => fixes.get(id)?.name ?? id).join(', ')}. The original stays as it is; the fixed file is a new job.
          </p>
        ) : (
          <p>No fix the service knows resolves these findings.</p>
        )}
        <button type="button" disabled={!fixable} onClick={fix.start}>
          ✎ Fix it
        </button>
        {fix.error && (
          <p role="alert" class="error">
            {fix.error}
          </p>
        )}
      </div>
    );
  }
  if (!fixJob || !fixTask || fixJob.status !== 'done') {
    return (
      <div class="fix-it" aria-live="polite">
        <p>
          Fixing… {fixJob && <Badge value={fixJob.status} label="Status" />} {fixJob && <a href={`#/jobs/${fixJob.id}`}>the fix job</a>}
        </p>
        {(fix.error || fixJob?.status === 'error') && (
          <p role="alert" class="error">
            {fix.error ?? fixTask?.reason ?? 'The fix job failed.'}
          </p>
        )}
      </div>
    );
  }
  const { last } = reportsOf(fixJob, fixTask.id);
  const images = ownPreviews(fixTask, 'changed') ?? ownPreviews(fixTask, 'original');
  const fixed = (fixTask.outputArtifacts ?? []).find((a) => a.role === 'fixed');
  const autofix = (fixJob.results?.autofix ?? []).find((a) => a.taskId === fixTask.id) ?? null;
  return (
    <div class="fix-it" aria-live="polite">
      <p>
        Fixed in <a href={`#/jobs/${fixJob.id}`}>job {fixJob.id}</a>: <Badge value={fixTask.outcome} label="Outcome" />
        {fixed?.downloadUrl && (
          <>
            {' '}
            <a href={fixed.downloadUrl} download={fixed.fileName} rel="noreferrer">
              Download the fixed file
            </a>
          </>
        )}
      </p>
      <BeforeAfter
        idPrefix={props.idPrefix}
        fileLabel={props.fileLabel}
        before={props.before}
        after={{ report: last, images, note: images ? 'No image of this page.' : 'The fixed file’s pages could not be rendered.' }}
        autofix={autofix}
        fixes={fixes}
      />
    </div>
  );
}
