/**
 * The custom search attributes every workflow carries must exist on the namespace before a workflow
 * starts (Temporal refuses the start otherwise). This registers the missing ones, or, where the caller
 * may not, says which command an administrator of the Temporal cluster should run.
 */
import { Connection, isGrpcServiceError } from '@temporalio/client';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { SEARCH_ATTRIBUTES } from './contracts';

/** gRPC status codes (@grpc/grpc-js `status`) that need their own explanation. */
const NOT_FOUND = 5;
const PERMISSION_DENIED = 7;

/** All of them are keywords (ids): domain/jobs/kinds.ts defines their keys with that type. */
const KEYWORD = encodeSearchAttributeIndexedValueType('KEYWORD')!;

export class SearchAttributesError extends Error {}

/** The Temporal CLI command that registers `names` on the namespace (one --type per --name, as the CLI pairs them). */
export function searchAttributeCommand(address: string, namespace: string, names: readonly string[]): string {
  return `temporal operator search-attribute create --address ${address} --namespace ${namespace} ${names.map((n) => `--name ${n} --type Keyword`).join(' ')}`;
}

/** Registers the attributes the namespace lacks; answers their names (empty when none was missing). */
export async function registerSearchAttributes(
  connection: Connection,
  address: string,
  namespace: string,
): Promise<string[]> {
  const wanted = Object.values(SEARCH_ATTRIBUTES);
  let missing: string[] = [...wanted];
  try {
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
    missing = wanted.filter((name) => !(name in (customAttributes ?? {})));
    if (missing.length === 0) return [];
    await connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(missing.map((name) => [name, KEYWORD])),
    });
    return missing;
  } catch (err) {
    if (!isGrpcServiceError(err)) throw err;
    if (err.code === NOT_FOUND) {
      throw new SearchAttributesError(
        `Temporal namespace ${namespace} (TEMPORAL_NAMESPACE) does not exist on ${address}: create it, e.g.\n  temporal operator namespace create --address ${address} --namespace ${namespace}`,
      );
    }
    if (err.code === PERMISSION_DENIED) {
      throw new SearchAttributesError(
        `not allowed to register the search attributes ${missing.join(', ')} on namespace ${namespace} (${err.details}). ` +
          `Ask an administrator of the Temporal cluster to run:\n  ${searchAttributeCommand(address, namespace, missing)}`,
      );
    }
    throw err;
  }
}
