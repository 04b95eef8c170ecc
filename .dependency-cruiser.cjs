/**
 * The layering of docs/architecture.md, checked by `npm run check:layers` (run by npm test):
 * api -> domain <- activities, domain -> entities, and workflows import only types (plus the
 * Temporal workflow SDK and their own plain-value helpers), so workflow code stays deterministic.
 */
const typeOnly = ['type-only', 'type-import'];

module.exports = {
  forbidden: [
    {
      name: 'domain-not-above',
      comment:
        'domain/ holds the business rules; it never reaches up into the HTTP layer, the activities, the worker or the CLI',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^(api|activities|worker|cli)/' },
    },
    {
      name: 'domain-to-workflows-types-and-ids-only',
      comment: 'domain/ may name workflow types (typed starts) and use workflows/ids.ts, never run workflow code',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^workflows/', pathNot: '^workflows/ids\\.ts$', dependencyTypesNot: typeOnly },
    },
    {
      name: 'activities-not-api',
      comment: 'activities wrap domain/, never the HTTP layer or the worker entry',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: '^(api|worker|cli)/' },
    },
    {
      name: 'entities-at-the-bottom',
      comment:
        'entities/ are the schema: they may name domain types and read the database settings (their commands: migrate, create the database), nothing else above them',
      severity: 'error',
      from: { path: '^entities/' },
      to: {
        path: '^(api|domain|activities|workflows|worker|cli)/',
        pathNot: '^domain/config\\.ts$',
        dependencyTypesNot: typeOnly,
      },
    },
    {
      name: 'api-not-workers',
      comment: 'the API starts workflows through domain/processes, it does not import activities or workflow code',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^(activities|worker|cli)/|^workflows/(?!ids\\.ts$)', dependencyTypesNot: typeOnly },
    },
    {
      name: 'workflows-types-only',
      comment: 'workflow code imports only types, the Temporal workflow SDK and other workflow files',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { pathNot: '^workflows/|@temporalio/(workflow|common)', dependencyTypesNot: typeOnly },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.json'] },
  },
};
