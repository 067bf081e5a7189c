/**
 * The preflight profiles (GET /profiles, docs/api.md §11 rule 10): the account's own first,
 * each with what it changes about its built-in base and the thresholds it judges with, then
 * the built-ins. Read-only: an admin key creates and changes profiles with POST /profiles and
 * PUT /profiles/{id}.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import { formatTime } from '../format';

type Thresholds = Record<string, number | string | boolean>;

/** The parts of GET /profiles the page reads. */
interface ListedProfile {
  id: string;
  name: string;
  description: string;
  kind: string;
  source: 'store' | 'account';
  checks: { id: string; severity: string; thresholds?: Thresholds }[];
  defaultFixes: string[];
  base?: string;
  version?: number;
  changes?: Record<string, { severity?: string; thresholds?: Thresholds }>;
  updatedAt?: string;
}
interface ThresholdSpec {
  check: string;
  name: string;
  unit: string;
}
interface Listing {
  profiles: ListedProfile[];
  thresholdSpecs: ThresholdSpec[];
}

/** A threshold's value with its unit (GET /profiles `thresholdSpecs`): `240 percent`, `3 mm`, `yes`. */
function withUnit(specs: ThresholdSpec[], check: string, name: string, value: number | string | boolean): string {
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const unit = specs.find((s) => s.check === check && s.name === name)?.unit;
  return unit ? `${value} ${unit === 'percent' ? '%' : unit}` : String(value);
}

/** The checks a profile runs with thresholds, as a table: check, severity, each threshold with its unit. */
function ThresholdTable({ profile, specs, only }: { profile: ListedProfile; specs: ThresholdSpec[]; only?: string[] }) {
  const rows = profile.checks.filter((c) => c.thresholds && Object.keys(c.thresholds).length > 0 && (!only || only.includes(c.id)));
  if (rows.length === 0) return null;
  return (
    <table class="profile-checks">
      <caption>{only ? 'Checks it changes' : 'Checks with thresholds'}</caption>
      <thead>
        <tr>
          <th scope="col">Check</th>
          <th scope="col">Severity</th>
          <th scope="col">Thresholds</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.id} data-check={c.id}>
            <th scope="row">{c.id}</th>
            <td>{c.severity}</td>
            <td>
              {Object.entries(c.thresholds!)
                .map(([name, value]) => `${name}: ${withUnit(specs, c.id, name, value)}`)
                .join(', ')}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AccountProfile({ profile, specs }: { profile: ListedProfile; specs: ThresholdSpec[] }) {
  const changed = Object.keys(profile.changes ?? {});
  const severityOnly = changed.filter((id) => !profile.checks.find((c) => c.id === id)?.thresholds);
  return (
    <article class="profile" data-profile-id={profile.id} aria-labelledby={`profile-${profile.id}`}>
      <h3 id={`profile-${profile.id}`}>{profile.name}</h3>
      <p class="muted">
        <code>{profile.id}</code>, version {profile.version}, based on <code>{profile.base}</code>
        {profile.updatedAt && <>, changed {formatTime(profile.updatedAt)}</>}
      </p>
      {profile.description && <p>{profile.description}</p>}
      <ThresholdTable profile={profile} specs={specs} only={changed} />
      {severityOnly.length > 0 && (
        <p>
          Severity changed: {severityOnly.map((id) => `${id} (${profile.checks.find((c) => c.id === id)?.severity ?? '?'})`).join(', ')}
        </p>
      )}
      {changed.length === 0 && <p>Runs every check as its base does.</p>}
    </article>
  );
}

function BuiltInProfile({ profile, specs }: { profile: ListedProfile; specs: ThresholdSpec[] }) {
  return (
    <details class="profile" data-profile-id={profile.id}>
      <summary>
        {profile.name} <code>{profile.id}</code>
      </summary>
      <p>{profile.description}</p>
      <ThresholdTable profile={profile} specs={specs} />
    </details>
  );
}

export function ProfilesPage() {
  const [listing, setListing] = useState<Listing | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<Listing>('GET', '/profiles').then(setListing, (e: Error) => setError(`The profiles could not be loaded: ${e.message}`));
  }, []);
  const own = listing?.profiles.filter((p) => p.source === 'account') ?? [];
  const builtIn = listing?.profiles.filter((p) => p.source === 'store') ?? [];
  const specs = listing?.thresholdSpecs ?? [];

  return (
    <main id="main" tabIndex={-1}>
      <h1>Preflight profiles</h1>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
      {listing && (
        <>
          <section aria-labelledby="own-profiles">
            <h2 id="own-profiles">Your profiles</h2>
            {own.length === 0 ? (
              <p>None yet. An admin key creates them with POST /profiles: a built-in profile with your own severities and thresholds.</p>
            ) : (
              own.map((p) => <AccountProfile key={p.id} profile={p} specs={specs} />)
            )}
          </section>
          <section aria-labelledby="built-in-profiles">
            <h2 id="built-in-profiles">Built-in profiles</h2>
            {builtIn.map((p) => (
              <BuiltInProfile key={p.id} profile={p} specs={specs} />
            ))}
          </section>
        </>
      )}
    </main>
  );
}
