/** @jsxImportSource preact */
/** The console's browser entry (bundled by the server on first request): mounts the app on #app. */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) render(<App />, root);
