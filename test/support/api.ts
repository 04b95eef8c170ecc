/** Requests the API tests make over and over: creating spaces, collections and change requests, and reading every page of a list. */
import type { Actor } from '../factories';
import type { TestServer } from './server';

export type Json = Record<string, any>;

export async function newSpace(server: TestServer, actor: Actor, orgId: string, body: object = {}): Promise<Json> {
  return (await server.as(actor.token).post(`/v1/orgs/${orgId}/spaces`).send(body).expect(201)).body;
}

export async function newCollection(server: TestServer, actor: Actor, orgId: string, body: object = {}): Promise<Json> {
  return (await server.as(actor.token).post(`/v1/orgs/${orgId}/collections`).send(body).expect(201)).body;
}

export async function newChangeRequest(
  server: TestServer,
  actor: Actor,
  spaceId: string,
  body: object = {},
): Promise<Json> {
  return (await server.as(actor.token).post(`/v1/spaces/${spaceId}/change-requests`).send(body).expect(201)).body;
}

export interface Listed {
  /** the items of every page, in order */
  items: Json[];
  /** the `id` of each item */
  ids: string[];
  /** the `count` each page answered */
  counts: number[];
  /** how many pages were read */
  pages: number;
  /** each page's whole body */
  bodies: Json[];
}

/** Follows `next.page` cursors from the first page to the last, each page answering 200. */
export async function listAll(
  server: TestServer,
  actor: Actor,
  path: string,
  query: Record<string, string | number> = {},
): Promise<Listed> {
  const bodies: Json[] = [];
  let page: string | undefined;
  do {
    const res = await server
      .as(actor.token)
      .get(path)
      .query({ ...query, ...(page ? { page } : {}) })
      .expect(200);
    bodies.push(res.body);
    page = res.body.next?.page;
  } while (page);
  const items = bodies.flatMap((b) => b.items as Json[]);
  return { items, ids: items.map((i) => i.id), counts: bodies.map((b) => b.count), pages: bodies.length, bodies };
}
