/** The stage bundle: one self-contained script and a page that loads only it. */
import { describe, expect, it } from 'vitest';
import { buildStageBundle } from '../../farm/build.js';

describe('buildStageBundle', () => {
  it('bundles the stage into one IIFE and caches it per process', async () => {
    const a = await buildStageBundle();
    const b = await buildStageBundle();
    expect(b).toBe(a);
    expect(a.html).toContain('<script src="./stage.js"></script>');
    expect(a.html).toMatch(/margin:\s*0/);
    expect(a.js).toContain('renderStage');
    expect(a.js.length).toBeGreaterThan(100_000);
  });

  it('names nothing to load: no URLs, no dynamic imports, one script on the page', async () => {
    // (three's unused loaders may mention fetch; what counts is that nothing names a resource)
    const { js, html } = await buildStageBundle();
    const urls = (js.match(/https?:\/\/[^"'`\s]+/g) ?? []).filter((u) => !u.startsWith('http://www.w3.org/'));
    expect(urls).toEqual([]);
    expect(/\bimport\(|importScripts/.test(js)).toBe(false);
    expect(html.match(/(src|href)=/g)).toHaveLength(1);
  });

  it('takes defaults from src/model without bundling the schemas (zod stays on the Node side)', async () => {
    const { js } = await buildStageBundle();
    expect(js).not.toMatch(/ZodError|\$ZodType/);
  });
});
