/** @jsxImportSource preact */
/** The catalog: parts by category with their thumbnails and specs; builds with their parts and a preview render. */
import { Fragment } from 'preact';
import type { CatalogBuild, CatalogPart } from '../console-api.js';
import { BuildPreview } from './build-preview.js';
import { ErrorNote } from './error-note.js';
import { href, type Route } from './hash-router.js';
import { useFetch } from './use-fetch.js';

/** `route.query.category`: the category shown (all when empty). */
export function CatalogPage({ route }: { route: Route }) {
  const category = route.query.get('category') ?? '';
  const builds = useFetch<{ builds: CatalogBuild[] }>('/catalog/builds');
  const all = useFetch<{ parts: CatalogPart[] }>('/catalog/parts');
  const parts = all.data?.parts ?? [];
  const categories = [...new Set(parts.map((p) => p.category))].sort();
  const shown = category ? parts.filter((p) => p.category === category) : parts;
  return (
    <section class="page catalog">
      <h2>Catalog</h2>
      <h3>Builds</h3>
      <ErrorNote error={builds.error} />
      <div class="builds">
        {builds.data?.builds.map((b) => (
          <article class="build" key={b.shareCode} data-build={b.shareCode}>
            <header>
              <strong>{b.name}</strong> <code>{b.shareCode}</code>
            </header>
            <ul class="build-parts">
              {b.parts.map((p) => (
                <li key={p.id}>
                  <span class="muted">{p.category}</span> {p.name}
                </li>
              ))}
            </ul>
            <BuildPreview shareCode={b.shareCode} />
          </article>
        ))}
        {builds.data?.builds.length === 0 ? <p class="muted">No saved builds.</p> : null}
      </div>
      <h3>Parts</h3>
      <nav class="tabs">
        <a href={href('catalog')} class={category ? '' : 'active'}>
          all ({parts.length})
        </a>
        {categories.map((c) => (
          <a key={c} href={href('catalog', { category: c })} class={c === category ? 'active' : ''}>
            {c} ({parts.filter((p) => p.category === c).length})
          </a>
        ))}
      </nav>
      <ErrorNote error={all.error} />
      <div class="parts">
        {shown.map((p) => (
          <article class="part" key={p.id} data-part={p.id}>
            {p.thumbnail ? (
              <img src={p.thumbnail} alt={p.name} loading="lazy" width={128} height={128} />
            ) : (
              <div class="no-thumb">no thumbnail</div>
            )}
            <div>
              <strong>{p.name}</strong>
              <div class="muted">
                {p.category} · <code>{p.id}</code>
              </div>
              <dl class="specs">
                {Object.entries(p.specs).map(([k, v]) => (
                  <Fragment key={k}>
                    <dt>{k}</dt>
                    <dd>{typeof v === 'object' ? JSON.stringify(v) : String(v)}</dd>
                  </Fragment>
                ))}
              </dl>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
