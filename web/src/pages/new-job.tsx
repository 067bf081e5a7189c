/**
 * New job (#/new): files dropped or chosen and uploaded one by one with their progress
 * (upload-files.tsx), then the operation, the profile (GET /profiles), validate codes and the
 * order with its context (docs/api.md §6); submitted as one POST /jobs with the uploads' fileRefs
 * (new-job-request.ts), after which the job's page follows it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ComponentChildren } from 'preact';
import { api, type Job } from '../api';
import { buildJobRequest, EMPTY_FORM, ON_FAIL, OPERATIONS, type FieldErrors, type NewJobForm } from '../new-job-request';
import { DropZone, UploadList, useUploads } from '../upload-files';

interface Profiles {
  profiles: { id: string; name: string; description: string }[];
  validateProfiles: { code: string; name: string; description: string }[];
}

/** A labelled text field with its error, if any, tied to it for screen readers. */
function Field(props: { name: keyof NewJobForm; label: string; form: NewJobForm; errors: FieldErrors; set: (change: Partial<NewJobForm>) => void; hint?: string; inputMode?: 'decimal' | 'numeric' | 'email' | 'text' }) {
  const { name, form, errors } = props;
  const id = `job-${name}`;
  const error = errors[name];
  const describedBy = [props.hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={name}
        type="text"
        inputMode={props.inputMode}
        value={form[name] as string}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(e) => props.set({ [name]: e.currentTarget.value })}
      />
      {props.hint && (
        <span id={`${id}-hint`} class="muted hint">
          {props.hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} class="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

function Group({ legend, children, error, id }: { legend: string; children: ComponentChildren; error?: string; id: string }) {
  return (
    <fieldset id={id} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {children}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** policy.onFail (docs/api.md §2) as the choice reads to shop staff. */
const ON_FAIL_WORDS: Record<NewJobForm['onFail'], string> = {
  reject: 'Stop it: cannot proceed',
  accept_with_warnings: 'Proceed anyway',
  manual_review: 'Hold for a review',
};

export function NewJobPage() {
  const uploads = useUploads();
  const [form, setForm] = useState<NewJobForm>(EMPTY_FORM);
  // Errors are shown once staff tried to create the job, and from then on follow every change,
  // so a corrected field loses its mark at once.
  const [attempted, setAttempted] = useState(false);
  const [profiles, setProfiles] = useState<Profiles | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const summary = useRef<HTMLParagraphElement>(null);
  const set = (change: Partial<NewJobForm>) => setForm((f) => ({ ...f, ...change }));
  const operation = OPERATIONS.find((o) => o.id === form.operation)!;
  const built = buildJobRequest(form, uploads.items);
  const errors: FieldErrors = attempted && !built.ok ? built.errors : {};
  const errorCount = Object.keys(errors).length;
  const fieldProps = { form, errors, set };

  useEffect(() => {
    api<Profiles>('GET', '/profiles').then(setProfiles, (e: Error) => setFailure(`The profiles could not be loaded: ${e.message}`));
  }, []);
  useEffect(() => {
    if (failure) summary.current?.focus();
  }, [failure]);

  const submit = async (e: Event) => {
    e.preventDefault();
    setAttempted(true);
    setFailure(null);
    if (!built.ok) {
      summary.current?.focus();
      return;
    }
    setSending(true);
    try {
      const created = await api<{ job: Job }>('POST', '/jobs', built.body);
      location.hash = `#/jobs/${encodeURIComponent(created.job.id)}`;
    } catch (err) {
      setFailure(`The job was not created: ${(err as Error).message}`);
    } finally {
      setSending(false);
    }
  };

  return (
    <main id="main" tabIndex={-1}>
      <h1>New job</h1>
      <div role="alert" class="error" tabIndex={-1} ref={summary}>
        {errorCount > 0 && <p>Correct the {errorCount === 1 ? 'field' : `${errorCount} fields`} marked below, then create the job.</p>}
        {failure && <p>{failure}</p>}
      </div>
      <form class="new-job" onSubmit={submit} noValidate>
        <Group legend="Files" id="job-files" error={errors.files}>
          <DropZone onFiles={uploads.add} describedBy={errors.files ? 'job-files-error' : undefined} />
          <UploadList items={uploads.items} onRemove={uploads.remove} onRetry={uploads.retry} />
        </Group>

        <Group legend="Operation" id="job-operation" error={errors.operation}>
          {OPERATIONS.map((o) => (
            <div class="choice">
              <input type="radio" id={`op-${o.id}`} name="operation" value={o.id} checked={form.operation === o.id} aria-describedby={`op-${o.id}-what`} onChange={() => set({ operation: o.id })} />
              <label for={`op-${o.id}`}>{o.label}</label>
              <span id={`op-${o.id}-what`} class="muted">
                {' – '}
                {o.description}
              </span>
            </div>
          ))}
        </Group>

        {operation.usesProfile && (
          <div class="field">
            <label for="job-profileId">Preflight profile</label>
            <select id="job-profileId" value={form.profileId} onChange={(e) => set({ profileId: e.currentTarget.value })}>
              {(profiles?.profiles ?? [{ id: form.profileId, name: form.profileId, description: '' }]).map((p) => (
                <option value={p.id}>{p.name}</option>
              ))}
            </select>
            {errors.profileId && <span class="field-error">{errors.profileId}</span>}
          </div>
        )}

        {form.operation === 'validate' && (
          <Group legend="Validate against" id="job-validateCodes" error={errors.validateCodes}>
            <div class="codes">
              {(profiles?.validateProfiles ?? []).map((v) => (
                <div class="choice">
                  <input
                    type="checkbox"
                    id={`code-${v.code}`}
                    value={v.code}
                    checked={form.validateCodes.includes(v.code)}
                    onChange={(e) =>
                      set({ validateCodes: e.currentTarget.checked ? [...form.validateCodes, v.code] : form.validateCodes.filter((c) => c !== v.code) })
                    }
                  />
                  <label for={`code-${v.code}`} title={v.description}>
                    {v.name} <span class="muted">({v.code})</span>
                  </label>
                </div>
              ))}
            </div>
          </Group>
        )}

        <Group legend="Order" id="job-order">
          <div class="fields">
            <Field name="orderId" label="Order id" {...fieldProps} />
            <Field name="customerId" label="Customer id" {...fieldProps} />
            <Field name="customerEmail" label="Customer e-mail" inputMode="email" {...fieldProps} />
            <div class="field">
              <label for="job-onFail">When a file fails</label>
              <select id="job-onFail" value={form.onFail} onChange={(e) => set({ onFail: e.currentTarget.value as NewJobForm['onFail'] })}>
                {ON_FAIL.map((p) => (
                  <option value={p}>{ON_FAIL_WORDS[p]}</option>
                ))}
              </select>
            </div>
          </div>
        </Group>

        <Group legend="What the customer ordered (narrows the preflight's thresholds; never adds checks)" id="job-context">
          <div class="fields">
            <Field name="widthMm" label="Trim width (mm)" inputMode="decimal" {...fieldProps} />
            <Field name="heightMm" label="Trim height (mm)" inputMode="decimal" {...fieldProps} />
            <Field name="bleedMm" label="Bleed required (mm)" inputMode="decimal" {...fieldProps} />
            <Field name="safetyMm" label="Safety margin, at least (mm)" inputMode="decimal" {...fieldProps} />
            <Field name="pagesMin" label="Pages, at least" inputMode="numeric" {...fieldProps} />
            <Field name="pagesMax" label="Pages, at most" inputMode="numeric" {...fieldProps} />
            <Field name="filesMin" label="Files, at least" inputMode="numeric" {...fieldProps} />
            <Field name="filesMax" label="Files, at most" inputMode="numeric" {...fieldProps} />
          </div>
        </Group>

        <button type="submit" disabled={sending}>
          {sending ? 'Creating the job…' : 'Create job'}
        </button>
      </form>
    </main>
  );
}
