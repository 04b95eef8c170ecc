/** Presents spaces for the caller: their permissions and, in one query per page, the counters. */
import { permissionsOf } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { SpaceCounters, spaceCounters } from '../../../domain/spaces/counters';
import type { Space } from '../../../entities/Space';
import { presentSpace } from '../../presenters/space';
import type { Urls } from '../../presenters/urls';

/** `counters`: when the statement that read the spaces selected them already (counterSelects). */
export async function presentSpacesFor(
  access: AccessContext,
  spaces: Space[],
  urls: Urls,
  counters?: Map<string, SpaceCounters>,
): Promise<Array<ReturnType<typeof presentSpace>>> {
  counters ??= await spaceCounters(access.db, spaces);
  const presented = [];
  for (const space of spaces) {
    const permissions = await permissionsOf(access, { kind: 'space', space });
    presented.push(presentSpace(space, permissions, counters.get(space.id)!, urls));
  }
  return presented;
}

export async function presentSpaceFor(
  access: AccessContext,
  space: Space,
  urls: Urls,
): Promise<ReturnType<typeof presentSpace>> {
  return (await presentSpacesFor(access, [space], urls))[0];
}
