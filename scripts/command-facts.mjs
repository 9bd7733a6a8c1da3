// Writes dist/command-facts.json, what bin/booking.js reads of the command tree before it loads the
// program (src/command-facts.ts): taken from the bundle just built, loaded as bin/booking.js loads
// it, so that the facts are those of the program that ships.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

/** The bundle's exports, loaded as bin/booking.js loads it. `dist` is the dist/ folder's URL. */
function loadBundle(dist) {
  const file = fileURLToPath(new URL('cli.cjs', dist));
  const module = { exports: {} };
  // The file is the program wrapped in a function (scripts/build.mjs), as bin/booking.js runs it.
  new vm.Script(readFileSync(file, 'latin1'), { filename: file }).runInThisContext()(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
    pathToFileURL(file).href,
  );
  return module.exports;
}

/** The facts of the command tree (src/command-facts.ts); `dist` is the dist/ folder's URL, holding cli.cjs. */
export async function commandFacts(dist) {
  const facts = await loadBundle(dist).commandFacts();
  if (facts.valueOptions.length === 0 || facts.sendsRequests.length === 0 || facts.bundles.length === 0)
    throw new Error(`command facts look empty: ${JSON.stringify(facts)}`);
  return facts;
}

export function writeCommandFacts(dist, facts) {
  writeFileSync(new URL('command-facts.json', dist), `${JSON.stringify(facts)}\n`);
}

/**
 * Writes man/<page>.1 for the program and every command, from the bundle's command tree (src/man.ts):
 * the folder is made afresh, so a removed command leaves no page behind.
 */
export async function writeManPages(dist, man, version) {
  const pages = await loadBundle(dist).manPages(version);
  rmSync(man, { recursive: true, force: true });
  mkdirSync(man, { recursive: true });
  for (const { file, text } of pages) writeFileSync(new URL(file, man), text);
  return pages.map((p) => p.file);
}
