// Types of command-bundles.mjs, for its tests.
import type { Plugin } from 'esbuild';

export function treeEntries(text: string): { start: number; end: number; entries: { name: string | undefined; line: string }[] };
export function keepOnly(text: string, name: string): string;
export function oneCommand(name: string): Plugin;
export function bundleFile(name: string): string;
