/** @jsxImportSource preact */
/**
 * Sign-in: an API key with the `console` scope (or an admin key) is exchanged for a session
 * cookie. The key lives only in the form field: it is cleared as soon as the call is made and
 * kept in no storage; the page keeps only the session's CSRF token.
 */
import type { SessionInfo } from '../console-api.js';
import { ErrorNote } from './error-note.js';
import { apiCall } from './http.js';
import { useAction } from './use-action.js';

/** Calls `onSignedIn` with the new session. */
export function SignInPage({ onSignedIn }: { onSignedIn: (s: SessionInfo) => void }) {
  const { busy, error, run } = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const field = form.elements.namedItem('key') as HTMLInputElement;
    const body = { key: field.value.trim() };
    field.value = ''; // the field is the key's only copy in the page: emptied before the answer
    await run(async () => {
      try {
        onSignedIn(await apiCall<SessionInfo>('POST', '/session', body));
      } finally {
        body.key = '';
      }
    });
  };
  return (
    <main class="sign-in">
      <form onSubmit={submit} autocomplete="off">
        <h1>render-farm console</h1>
        <div class="muted sign-in-keys" data-note="which-keys">
          <p>Sign in with an API key that may use the console:</p>
          <ul>
            <li>
              the demo API key <code>render-farm up</code> printed (also in <code>.render-farm/demo-api-key</code>, in
              the data dir);
            </li>
            <li>
              a customer's key from <code>render-farm keys create --customer NAME --console</code>, or an admin key (
              <code>--admin</code>).
            </li>
          </ul>
        </div>
        <label>
          API key
          <input name="key" type="password" required autocomplete="off" spellcheck={false} placeholder="rfk_prod_..." />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <ErrorNote error={error} />
      </form>
    </main>
  );
}
