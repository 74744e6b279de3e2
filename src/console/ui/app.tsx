/** @jsxImportSource preact */
/**
 * The console shell: asks /me whether a session exists, shows the sign-in page when not, else
 * the navigation and the page the hash names. Sign-out deletes the session and forgets the
 * CSRF token; any 401 (expired session) lands back on sign-in.
 */
import { useEffect, useState } from 'preact/hooks';
import type { SessionInfo } from '../console-api.js';
import { CatalogPage } from './catalog-page.js';
import { href, useRoute } from './hash-router.js';
import { apiCall, onUnauthorized, setCsrf } from './http.js';
import { closeJobEvents } from './job-events.js';
import { JobDetailPage } from './job-detail-page.js';
import { JobsPage } from './jobs-page.js';
import { KeysPage } from './keys-page.js';
import { OverviewPage } from './overview-page.js';
import { PregenPage } from './pregen-page.js';
import { SignInPage } from './sign-in-page.js';
import { WebhooksPage } from './webhooks-page.js';
import { WorkerPage } from './worker-page.js';

/** The whole console. */
export function App() {
  // undefined: not known yet (asking /me); null: signed out
  const [session, setSession] = useState<SessionInfo | null | undefined>(undefined);
  const route = useRoute();
  useEffect(() => {
    onUnauthorized(() => {
      setCsrf('');
      closeJobEvents();
      setSession(null);
    });
    apiCall<SessionInfo>('GET', '/me').then(
      (s) => {
        setCsrf(s.csrf);
        setSession(s);
      },
      () => setSession(null),
    );
  }, []);
  if (session === undefined) return <p class="muted boot">Loading…</p>;
  if (session === null) {
    return (
      <SignInPage
        onSignedIn={(s) => {
          setCsrf(s.csrf);
          setSession(s);
        }}
      />
    );
  }
  const signOut = async () => {
    try {
      await apiCall('DELETE', '/session');
    } finally {
      setCsrf('');
      closeJobEvents();
      setSession(null);
    }
  };
  const [page = 'overview', arg] = route.path;
  const nav: [string, string, boolean][] = [
    ['overview', 'Overview', true],
    ['jobs', 'Jobs', true],
    ['catalog', 'Catalog', true],
    ['pregen', 'Pregen', true],
    ['keys', 'Keys', session.admin],
    ['webhooks', 'Webhooks', session.admin],
  ];
  return (
    <div class="shell">
      <header class="top">
        <span class="brand">render-farm</span>
        <nav>
          {nav
            .filter(([, , shown]) => shown)
            .map(([p, label]) => (
              <a key={p} href={href(p)} class={p === page ? 'active' : ''} data-nav={p}>
                {label}
              </a>
            ))}
        </nav>
        <span class="who" data-customer={session.customer}>
          {session.customer} · {session.environment}
          {session.admin ? ' · admin' : ''}
        </span>
        <button type="button" class="secondary" data-action="sign-out" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>{pageFor(page, arg, route, session)}</main>
    </div>
  );
}

function pageFor(page: string, arg: string | undefined, route: ReturnType<typeof useRoute>, session: SessionInfo) {
  switch (page) {
    case 'overview':
      return <OverviewPage admin={session.admin} />;
    case 'workers':
      return arg ? <WorkerPage key={arg} id={arg} /> : <OverviewPage admin={session.admin} />;
    case 'jobs':
      return arg ? <JobDetailPage key={arg} id={arg} /> : <JobsPage route={route} />;
    case 'catalog':
      return <CatalogPage route={route} />;
    case 'pregen':
      return <PregenPage admin={session.admin} />;
    case 'keys':
      return <KeysPage />;
    case 'webhooks':
      return <WebhooksPage id={arg} />;
    default:
      return (
        <section class="page">
          <h2>Not found</h2>
          <p>
            No page <code>{page}</code>. <a href={href('overview')}>Overview</a>
          </p>
        </section>
      );
  }
}
