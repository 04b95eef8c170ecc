/**
 * `node dist/worker/prepare-namespace.js`, run by `npm start` and `npm test` before the worker starts:
 * connects to TEMPORAL_ADDRESS and registers the search attributes the workflows carry on
 * TEMPORAL_NAMESPACE. Exits 1 with a message saying what to do when that is not possible.
 */
import { Connection } from '@temporalio/client';
import { registerSearchAttributes, SearchAttributesError } from '../domain/jobs/search-attributes';
import { loadTemporalConfig } from '../platform/config';
import { temporalConnectionOptions } from '../platform/temporal/connection';

async function main(): Promise<void> {
  const { temporal } = loadTemporalConfig();
  const { address, namespace } = temporal;
  let connection: Connection;
  try {
    connection = await Connection.connect({ ...temporalConnectionOptions(temporal), connectTimeout: '10s' });
  } catch (err) {
    throw new SearchAttributesError(
      `Temporal at ${address} (TEMPORAL_ADDRESS) is not reachable: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  try {
    const added = await registerSearchAttributes(connection, address, namespace);
    if (added.length)
      process.stdout.write(`registered the search attributes ${added.join(', ')} on Temporal namespace ${namespace}\n`);
  } finally {
    await connection.close();
  }
}

main().catch((err) => {
  process.stderr.write(
    `${err instanceof SearchAttributesError ? err.message : err instanceof Error ? err.stack : String(err)}\n`,
  );
  process.exit(1);
});
