/**
 * The layers of `src/core`, lowest first (docs/architecture.md draws them). A module may import its own
 * folder and any folder below it, never one above: dependency-cruiser fails the import otherwise
 * (`npm run lint`, and test/unit/repository/layers.test.ts plants a wrong-way import to see it fail). Folders on one
 * line are peers and must not import each other either. `src/core` imports nothing of the CLI, the Astro
 * integration or the site's routes, which sit on top of it.
 */
const LAYERS = [
  ['util'],
  ['i18n'],
  ['ard'],
  ['project'],
  ['hosting'],
  ['schema'],
  ['model'],
  ['ram'],
  ['a2a'],
  ['trust'],
  ['releases'],
  ['verify'],
  ['content'],
  ['registry'],
  ['site'],
  ['pages', 'diff'],
  ['import'],
  ['build'],
];

const folders = (names) => `^src/core/(${names.join('|')})/`;

/** One rule per layer: nothing above it, and no peer on its own line. */
const layerRules = LAYERS.flatMap((line, index) => {
  const above = LAYERS.slice(index + 1).flat();
  const rules = [];
  for (const folder of line) {
    const forbidden = [...above, ...line.filter((peer) => peer !== folder)];
    if (forbidden.length === 0) continue;
    rules.push({
      name: `layer-${folder}`,
      comment: `src/core/${folder} may import only the layers below it (docs/architecture.md)`,
      severity: 'error',
      from: { path: `^src/core/${folder}/` },
      to: { path: folders(forbidden) },
    });
  }
  return rules;
});

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'core-stays-below-its-callers',
      comment: 'src/core is called by the CLI, the Astro integration and the routes, never the other way',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(cli|astro|lib|pages|components|layouts|registry-routes)/' },
    },
    {
      name: 'core-modules-live-in-layers',
      comment:
        'every module of src/core lives in the folder of a layer listed above (none loose at its root)',
      severity: 'error',
      from: { path: '^src/core/', pathNot: folders(LAYERS.flat()) },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/core/verify/schemas/' },
    // type-only imports tie two layers together as much as value imports do
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.json'],
    },
  },
};
