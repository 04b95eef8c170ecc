/**
 * The layering of docs/architecture.md, checked by `npm run check:layers` (run by npm test):
 * api -> domain <- activities, domain -> entities, and workflows import only types (plus the
 * Temporal workflow SDK, each other, and the job contracts), so workflow code stays deterministic.
 * The job contracts (domain/processes/contracts.ts) import nothing and are all domain/ knows of the
 * workflows, so no import circle runs through workflows/.
 */
const typeOnly = ['type-only', 'type-import'];
const contracts = '^domain/processes/contracts\\.ts$';

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
      name: 'domain-not-workflows',
      comment:
        'domain/ starts jobs through the job contracts (domain/processes/contracts.ts) and never imports workflows/, not even a type',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^workflows/' },
    },
    {
      name: 'contracts-import-nothing',
      comment: 'the job contracts are the bottom floor: workflow code imports them by value, so they import nothing',
      severity: 'error',
      from: { path: contracts },
      to: {},
    },
    {
      name: 'no-circle-through-workflows',
      comment: 'an import circle through workflows/ ties workflow code to what imports it',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { circular: true },
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
      to: { path: '^(activities|worker|cli)/|^workflows/', dependencyTypesNot: typeOnly },
    },
    {
      name: 'workflows-types-only',
      comment:
        'workflow code imports only types, the Temporal workflow SDK, other workflow files and the job contracts',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { pathNot: `^workflows/|@temporalio/(workflow|common)|${contracts}`, dependencyTypesNot: typeOnly },
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
