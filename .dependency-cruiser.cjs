// The layer order of docs/architecture.md, enforced in `npm run lint`: a file may import from its own
// layer and the layers below it, never from one above. Top first; a file takes the first layer whose
// pattern matches it.
const LAYERS = [
  ['entry', '^src/(main|command-tree)\\.ts$'],
  ['cli', '^src/(cli|run-context|help|man|man-text)\\.ts$'],
  ['commands', '^src/commands/'],
  ['completion', '^src/completion/'],
  ['context', '^src/context\\.ts$'],
  ['sandbox', '^src/sandbox/'],
  ['webhook', '^src/webhook/'],
  ['http', '^src/http/'],
  ['config', '^src/config/'],
  // The streams, the one door every byte passes, the writers, JSON text for them, the hidden prompt.
  ['output', '^src/output/'],
  // The foundation: errors, global option types, the key mask, the JSON scan; everything may use it.
  ['base', '^src/base/'],
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

const IN_A_LAYER = LAYERS.map(([, p]) => p);

forbidden.push(
  {
    name: 'no-circular',
    comment: 'a circle of imports makes its files one piece in disguise, type-only imports included: move the shared types into a small module both import',
    severity: 'error',
    from: { path: '^src/' },
    to: { circular: true },
  },
  // Every file of src/ sits in a layer of the table: a new file at the top of src/, or in a new
  // folder, is placed there (and in docs/architecture.md) before it is used.
  {
    name: 'file-outside-the-layers',
    comment: 'this file is in no layer of docs/architecture.md: move it into a layer\'s folder, or add it to LAYERS and the doc',
    severity: 'error',
    from: { path: '^src/', pathNot: IN_A_LAYER },
    to: {},
  },
  {
    name: 'import-outside-the-layers',
    comment: 'this file is in no layer of docs/architecture.md: move it into a layer\'s folder, or add it to LAYERS and the doc',
    severity: 'error',
    from: { path: '^src/' },
    to: { path: '^src/', pathNot: IN_A_LAYER },
  },
);

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^(node_modules|dist|test)/' },
  },
};
