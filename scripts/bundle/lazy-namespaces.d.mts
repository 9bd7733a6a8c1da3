// Types of lazy-namespaces.mjs, for its test.
export function lazyNamespaces(code: string): { code: string; moved: number };
