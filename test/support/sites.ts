/** Requests the site tests make over and over. */
import type { Actor } from '../factories';
import type { Json } from './api';
import type { TestServer } from './server';

export const sitesPath = (orgId: string) => `/v1/orgs/${orgId}/sites`;

export async function newSite(server: TestServer, actor: Actor, orgId: string, body: object = {}): Promise<Json> {
  return (await server.as(actor.token).post(sitesPath(orgId)).send(body).expect(201)).body;
}

/** The published structure's items as `type:title` (groups with their sections inside). */
export function outline(structure: Json): unknown[] {
  return structure.structure.map((item: Json) => {
    if (item.object === 'site-section-group')
      return { group: item.title, sections: item.sections.map((s: Json) => s.title) };
    if (item.object === 'site-section')
      return { section: item.title, siteSpaces: item.siteSpaces.map((s: Json) => s.title) };
    return item.title;
  });
}
