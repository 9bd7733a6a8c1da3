// scripts/bundle/lazy-namespaces.mjs against what esbuild writes today: a module loaded with import()
// gets its namespace object filled by its own init, and every way the bundle reads it still works.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInThisContext } from 'node:vm';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { lazyNamespaces } from '../../scripts/bundle/lazy-namespaces.mjs';

const dir = mkdtempSync(join(tmpdir(), 'booking-lazy-ns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A bundle as scripts/build.mjs makes one (CommonJS, minified, import() as a lazy require); `readable`: names kept, as with BUILD_READABLE. */
async function bundle(files: Record<string, string>, readable = false): Promise<string> {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const result = await build({
    entryPoints: [join(dir, 'entry.ts')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    ...(readable ? { minifyWhitespace: true, minifySyntax: true } : { minify: true }),
    write: false,
    supported: { 'dynamic-import': false },
  });
  return result.outputFiles[0].text;
}

/** Runs a CommonJS bundle and returns its exports. */
function run(code: string): Record<string, (...args: unknown[]) => unknown> {
  const module = { exports: {} };
  runInThisContext(`(function (exports, require, module) {${code}\n})`)(module.exports, require, module);
  return module.exports as Record<string, (...args: unknown[]) => unknown>;
}

describe('lazy namespaces', () => {
  it('moves a namespace into its module’s init, and import() still sees live bindings', async () => {
    const code = await bundle({
      'entry.ts': `export async function load() { const m = await import('./lazy'); m.bump(); return [m.count, m.name, Object.keys(m).sort().join()]; }
        export async function again() { const m = await import('./lazy'); return m.count; }
        export const loaded = () => (globalThis as any).__lazyLoaded === true;`,
      'lazy.ts': `(globalThis as any).__lazyLoaded = true; export let count = 1; export const name = 'lazy'; export function bump() { count++; }`,
    });
    const { code: out, moved } = lazyNamespaces(code);
    expect(moved).toBe(1);
    expect(out).not.toBe(code);
    const api = run(out);
    // The module is not run until imported, as before.
    expect(api.loaded()).toBe(false);
    expect(await api.load()).toEqual([2, 'lazy', 'bump,count,name']);
    expect(await api.again()).toBe(2);
  });

  it('moves it in the build that keeps the names (BUILD_READABLE) too', async () => {
    const code = await bundle(
      {
        'entry.ts': `export async function load() { const m = await import('./lazy'); return [m.name, Object.keys(m).join()]; }`,
        'lazy.ts': `export const name = 'lazy';`,
      },
      true,
    );
    expect(code).toContain('__esm({"');
    const { code: out, moved } = lazyNamespaces(code);
    expect(moved).toBe(1);
    expect(await run(out).load()).toEqual(['lazy', 'name']);
  });

  it('leaves a namespace that is also read without its init', async () => {
    const code = await bundle({
      'entry.ts': `import * as ns from './eager'; export const keys = () => Object.keys(ns).join(); export async function load() { return (await import('./lazy')).x; }`,
      'eager.ts': `export const a = 1; export const b = 2;`,
      'lazy.ts': `export const x = 'x';`,
    });
    const { code: out } = lazyNamespaces(code);
    const api = run(out);
    expect(api.keys()).toBe('a,b');
    expect(await api.load()).toBe('x');
  });

  it('fails the build when esbuild no longer writes the form it moves', () => {
    expect(() => lazyNamespaces('var a=1;')).toThrow(/__export helper was not found/);
  });
});
