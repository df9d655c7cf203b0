/**
 * Module edges of `src/`, checked in CI (`npm run lint:deps`; architecture.md "Layout").
 *
 * 1. Layers. Each folder under `src/` is a bounded context (or the infrastructure under them); imports run one
 *    way, from higher layers to lower ones (architecture.md "Layout":
 *    `checkin/invoices/giftcards -> orders -> customers -> seating -> catalogue -> organizers -> common`; `media`
 *    above gift cards and orders, whose rows media link). Folders of one layer
 *    do not import each other. Where a lower context needs an answer only a higher one can give, it declares a
 *    port (`*.port.ts`: interface + token) and the composition root (`src/app.module.ts`, `src/cli/`) hands it the
 *    module of the higher context that provides it (e.g. `CatalogueModule.register(OrdersCoreModule)`).
 *    The placement of `auth`: right above `common`, below every context that declares routes or receives a
 *    Principal (audit, the tenancy roots, …). The guards resolve organizer and event through the
 *    `CREDENTIAL_RESOLVER` port, which the teams context provides (`AuthModule.forRoot([TeamsModule])`), so auth
 *    imports no context. A new folder must be given a layer here.
 * 2. No cycles between modules (and, with 1, none between folders).
 * 3. Entities and repositories stay in their context. Another context may import a `*.entity.ts` only
 *    - as a type (`import type`, for signatures), or
 *    - from its own `*.entity.ts` (a relation, i.e. a foreign key), or
 *    - in a `*.controller.ts`, the tenancy roots `Event` and `Organizer`: the scope objects the permission guard
 *      resolves, which decorated handler parameters must name at runtime.
 *    So no context can query another one's table through TypeORM (a repository or `em.find` needs the entity
 *    class); it calls the owner's exported services, rules or ports instead (raw SQL is checked by
 *    test/table-ownership.spec.ts).
 * Exceptions would be listed below (KNOWN_UPWARD, KNOWN_FOREIGN_ENTITIES), each with its reason; there are none:
 * the last two (teams querying users with TypeORM, the scheduler importing root-level queue names) are gone.
 */

/** Lowest first. Folders in one entry form one layer. */
const LAYERS = [
  ['config'],
  ['database'],
  ['common'],
  ['auth'],
  ['audit'],
  ['organizers'],
  ['tasks'],
  ['mail'],
  ['teams'],
  ['oauth'],
  ['catalogue'],
  ['waitinglist'],
  ['seating'],
  ['customers'],
  ['orders'],
  ['checkin', 'invoices', 'giftcards', 'tickets'],
  ['media'],
  ['devices', 'sync'],
  ['exports', 'sendmail-rules', 'shredder'],
  ['webhooks'],
  ['scheduler', 'cli', 'health'],
];

/** Allowed upward edges, `{ from, to }` path patterns with a reason each. None. */
const KNOWN_UPWARD = [];

/** Allowed imports of another context's entity as a value, `{ from, to }` with a reason each. None. */
const KNOWN_FOREIGN_ENTITIES = [];

const folder = (name) => `^src/${name}/`;
/** Files in a folder under `src/` that has no layer. */
const UNPLACED = `^src/(?!(${LAYERS.flat().join('|')})/)[^/]+/`;

/**
 * One rule per folder: nothing in it imports a higher layer, another folder of its layer, or `src/*.ts` (the
 * composition roots). A known exception lifts the rule for its files only towards its listed targets.
 */
const layerRules = LAYERS.flatMap((layer, i) =>
  layer.flatMap((name) => {
    const higher = `^src/(${[...LAYERS.slice(i + 1).flat(), ...layer.filter((n) => n !== name)].join('|')})/|^src/[^/]+[.]ts$`;
    const comment = `${name} imports only from lower layers: ${LAYERS.slice(0, i).flat().join(', ') || 'none'}.`;
    const known = KNOWN_UPWARD.filter((k) => k.from.startsWith(folder(name)));
    return [
      {
        name: `layer-${name}`,
        comment,
        severity: 'error',
        from: { path: folder(name), pathNot: known.map((k) => k.from) },
        to: { path: higher },
      },
      ...known.map((k) => ({
        name: `layer-${name}-known-exception`,
        comment: `${comment} Known exception (boundary cleanup): only towards ${k.to}.`,
        severity: 'error',
        from: { path: k.from },
        to: { path: higher, pathNot: k.to },
      })),
    ];
  }),
);

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'no-unplaced-folder',
      comment: 'Every folder under src/ has a layer in LAYERS (.dependency-cruiser.js): it may not import...',
      severity: 'error',
      from: { path: UNPLACED },
      to: {},
    },
    {
      name: 'no-unplaced-folder-imported',
      comment: '...nor be imported before it has one.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: UNPLACED },
    },
    {
      name: 'no-circular',
      comment:
        'No import cycles. Entities may point at each other (TypeORM relations in both directions, lazily resolved).',
      severity: 'error',
      from: { path: '^src/', pathNot: '[.]entity[.]ts$' },
      to: { circular: true },
    },
    {
      name: 'no-foreign-entity',
      comment: "Another context's entity only as a type, or from an entity (a relation, i.e. a foreign key).",
      severity: 'error',
      from: {
        path: '^src/([^/]+)/',
        pathNot: ['[.]entity[.]ts$', '[.]controller[.]ts$', ...KNOWN_FOREIGN_ENTITIES.map((k) => k.from)],
      },
      to: { path: '^src/([^/]+)/.+[.]entity[.]ts$', pathNot: '^src/$1/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-foreign-entity-in-controllers',
      comment:
        'Controllers may name the tenancy roots Event and Organizer (guard-resolved scope), no other entity.',
      severity: 'error',
      from: { path: '^src/([^/]+)/.+[.]controller[.]ts$' },
      to: {
        path: '^src/([^/]+)/.+[.]entity[.]ts$',
        pathNot: ['^src/$1/', '^src/organizers/(event|organizer)[.]entity[.]ts$'],
        dependencyTypesNot: ['type-only'],
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    includeOnly: '^src/',
    exclude: { path: '[.]spec[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
