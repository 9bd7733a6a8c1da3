// Types of command-bundles.mjs, for its tests.
import type { Plugin } from 'esbuild';

interface Entry {
  name: string | undefined;
  path: string;
  line: string;
}
export function commandEntries(text: string, file?: string): Entry[];
export function keepOnly(text: string, name: string, file?: string): { text: string; kept: Entry };
export function oneCommand(path: string[]): Plugin;
export function bundleFile(path: string[]): string;
