/**
 * The console for shop staff (issue 17): a single page on the API's own origin, routed by the
 * URL's fragment (#/ the jobs, #/jobs/<id> one job, #/new a new job, #/profiles the preflight profiles), so the server
 * serves one document for all.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { currentKey, signOut } from './session';
import { SignIn } from './pages/sign-in';
import { JobsPage } from './pages/jobs';
import { JobPage } from './pages/job';
import { NewJobPage } from './pages/new-job';
import { ProfilesPage } from './pages/profiles';

function route(): { page: 'jobs' } | { page: 'job'; id: string } | { page: 'new' } | { page: 'profiles' } {
  if (location.hash === '#/new') return { page: 'new' };
  if (location.hash === '#/profiles') return { page: 'profiles' };
  const m = /^#\/jobs\/([^/?#]+)$/.exec(location.hash);
  return m ? { page: 'job', id: decodeURIComponent(m[1]!) } : { page: 'jobs' };
}

function App() {
  const [signedIn, setSignedIn] = useState(currentKey() !== null);
  const [where, setWhere] = useState(route());
  useEffect(() => {
    const onHash = () => setWhere(route());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Proofline</span>
        <nav aria-label="Console">
          <a href="#/">Jobs</a>
          <a href="#/new">New job</a>
          <a href="#/profiles">Profiles</a>
        </nav>
        <button
          type="button"
          onClick={() => {
            signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      {where.page === 'job' ? <JobPage id={where.id} /> : where.page === 'new' ? <NewJobPage /> : where.page === 'profiles' ? <ProfilesPage /> : <JobsPage />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
