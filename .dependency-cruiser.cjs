// The floors of the house (DESIGN.md, "Layout"): a room imports only from the rooms this file lets it.
// `npm run check:layout` (in .ci/run) fails on an import that runs up a floor or closes a circle.
//
//   cli, index.ts                     the commands; the public API
//   report                            tables, grid JSON, SVG/PNG, HTML, Markdown, JUnit
//   store   pool                      the run directory; the worker realms that hold agents
//   run                               episode runner, sweep, rejudge, selftest, validate, task families
//   judge   user   stats   agents      the verdict; the simulated users; the statistics; the agents
//   model   worlds   faults   perturbations   src/worlds (worlds over a team's own servers)
//   ground                            seeds, clock, world runtime, faults and perturbation engines, the shared types
const PROJECT = '^(src|scenarios|faults|perturbations)/';

/** Every room and the rooms below it that it may import from (itself included). */
const ROOMS = {
  'src/ground': [],
  'src/model': ['src/ground'],
  scenarios: ['src/ground'],
  faults: ['src/ground'],
  perturbations: ['src/ground'],
  'src/worlds': ['src/ground'],
  'src/judge': ['src/ground', 'src/model'],
  'src/user': ['src/ground', 'src/model'],
  'src/stats': ['src/ground'],
  'src/agents': ['src/ground', 'src/model', 'scenarios'],
  'src/run': ['src/ground', 'src/model', 'src/judge', 'src/user', 'src/stats', 'src/agents', 'scenarios', 'faults', 'perturbations'],
  'src/store': ['src/ground', 'src/run'],
  'src/pool': ['src/ground', 'src/model', 'src/agents', 'src/run', 'src/store'],
  'src/report': ['src/ground', 'src/model', 'src/judge', 'src/user', 'src/stats', 'src/agents', 'scenarios', 'faults', 'perturbations', 'src/run', 'src/store'],
};

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const under = (room) => `^${escape(room)}/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: some file along it imports from a floor above its own.',
      severity: 'error',
      from: { path: PROJECT },
      to: { circular: true },
    },
    ...Object.entries(ROOMS).map(([room, below]) => ({
      name: `floor:${room}`,
      comment: `${room} imports only from ${[room, ...below].join(', ')} (DESIGN.md, "Layout").`,
      severity: 'error',
      from: { path: under(room) },
      to: { path: PROJECT, pathNot: [room, ...below].map(under) },
    })),
    {
      name: 'cli-is-the-top',
      comment: 'Only the public API and the commands may import the commands.',
      severity: 'error',
      from: { path: PROJECT, pathNot: ['^src/cli/', '^src/index\\.ts$'] },
      to: { path: '^src/cli/' },
    },
    {
      name: 'every-file-in-a-room',
      comment: 'A file under src/ lives in a room this file lists (or is a command, or the public API), so that its floor is known.',
      severity: 'error',
      from: { path: '^src/', pathNot: [...Object.keys(ROOMS).map(under), '^src/cli/', '^src/index\\.ts$'] },
      to: { path: PROJECT },
    },
    {
      name: 'index-is-the-top',
      comment: 'Nothing inside imports the public API (src/index.ts).',
      severity: 'error',
      from: { path: PROJECT },
      to: { path: '^src/index\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    // TypeScript 7 has no JavaScript API; swc parses the sources, type-only imports included.
    parser: 'swc',
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.mts', '.js', '.mjs'] },
  },
};
