// The layer order of docs/architecture.md, enforced in `npm run lint`: a file may import from its own
// layer and the layers below it, never from one above. Top first; a file takes the first layer whose
// pattern matches it.
const LAYERS = [
  ['entry', '^src/(main|command-tree)\\.ts$'],
  ['cli', '^src/(cli|help|man)\\.ts$'],
  ['commands', '^src/commands/'],
  ['completion', '^src/completion/'],
  ['context', '^src/context\\.ts$'],
  ['sandbox', '^src/sandbox/'],
  ['webhook', '^src/webhook/'],
  ['http', '^src/http/'],
  ['config', '^src/config/'],
  // The streams (io.ts derives them through output/door.ts), the writers, and JSON text for them.
  ['output', '^src/(output/|io\\.ts$|json(-raw|-lazy)?\\.ts$|prompt\\.ts$)'],
  // The foundation: errors, global option types, the key mask, the JSON scan; everything may use it.
  ['base', '^src/[^/]+\\.ts$'],
];

const layerOf = (i) => ({ path: LAYERS[i][1], pathNot: LAYERS.slice(0, i).map(([, p]) => p) });

const forbidden = LAYERS.flatMap(([name], i) =>
  LAYERS.slice(0, i).map(([above], j) => ({
    name: `${name}-not-to-${above}`,
    comment: `${name} sits below ${above} in docs/architecture.md: move what it needs down, or the code up`,
    severity: 'error',
    from: layerOf(i),
    to: layerOf(j),
  })),
);

forbidden.push({
  name: 'no-circular',
  comment: 'a circle of imports makes its files one piece in disguise (type-only imports aside)',
  severity: 'error',
  from: { path: '^src/' },
  to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
});

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist|test)/' },
  },
};
