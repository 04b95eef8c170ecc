/**
 * The floors of docs/architecture.md, checked by `npm run check:layers` (run by npm test), bottom up:
 *   1. entities/ (the schema and its vocabulary leaf) and the job contracts (domain/jobs/contracts.ts);
 *   2. platform/ (configuration, the database, deadlines, metrics, storage, the guarded fetch, Temporal, rate limits);
 *   3. domain/ (business rules only);
 *   4. activities/, api/, cli/;
 *   5. workflows/ (types only, plus the contracts) and worker/.
 * A floor imports only floors below it, and no import circle exists anywhere.
 */
const typeOnly = ['type-only', 'type-import'];
const contracts = '^domain/jobs/contracts\\.ts$';
const vocabulary = '^entities/vocabulary\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment:
        'an import circle makes load order decide what is defined; move the shared piece where both sides can import it',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'entities-at-the-bottom',
      comment: 'entities/ are the ground floor: they import nothing of ours above them',
      severity: 'error',
      from: { path: '^entities/' },
      to: { path: '^(platform|domain|api|activities|workflows|worker|cli|bench|scripts|test)/' },
    },
    {
      name: 'contracts-import-only-the-vocabulary',
      comment: 'workflow code imports the job contracts by value, so they import nothing but the vocabulary leaf',
      severity: 'error',
      from: { path: contracts },
      to: { pathNot: vocabulary },
    },
    {
      name: 'vocabulary-is-a-leaf',
      comment: 'the vocabulary leaf imports nothing',
      severity: 'error',
      from: { path: vocabulary },
      to: {},
    },
    {
      name: 'platform-below-domain',
      comment: 'platform/ is plumbing with no rule of its own: it stands on entities/ and never reaches up',
      severity: 'error',
      from: { path: '^platform/' },
      to: { path: '^(domain|api|activities|workflows|worker|cli|bench|scripts|test)/' },
    },
    {
      name: 'domain-not-above',
      comment:
        'domain/ holds the business rules; it never reaches up into the HTTP layer, the activities, the worker, the CLI or the workflows (it starts jobs through the contracts)',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: '^(api|activities|workflows|worker|cli|bench|scripts|test)/' },
    },
    {
      name: 'activities-not-api',
      comment: 'activities wrap domain/, never the HTTP layer, the CLI or the worker entry',
      severity: 'error',
      from: { path: '^activities/' },
      to: { path: '^(api|worker|cli|bench|test)/' },
    },
    {
      name: 'api-not-workers',
      comment: 'the API starts workflows through domain/jobs, it does not import activities or workflow code',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: '^(activities|worker|cli|bench|test)/|^workflows/', dependencyTypesNot: typeOnly },
    },
    {
      name: 'workflows-types-only',
      comment:
        'workflow code imports only types, the Temporal workflow SDK, other workflow files and the job contracts',
      severity: 'error',
      from: { path: '^workflows/' },
      to: { pathNot: `^workflows/|@temporalio/(workflow|common)|${contracts}`, dependencyTypesNot: typeOnly },
    },
    {
      name: 'product-not-tests',
      comment: 'no product code imports the tests or the benchmarks',
      severity: 'error',
      from: { path: '^(entities|platform|domain|api|activities|workflows|worker|cli)/' },
      to: { path: '^(test|bench)/' },
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
