/** A space and a change request on it, and the two content prefixes under test (space head, change request head). */
import request from 'supertest';
import { crc32, deflateSync } from 'zlib';
import { createChangeRequest } from '../../domain/content/change-requests';
import type { ChangeRequest } from '../../entities/ChangeRequest';
import { inTransaction } from '../../platform/db/transactions';
import { createOrg, OrgFixture } from '../factories';
import { Json, newSpace } from './api';
import type { TestServer } from './server';

export interface ContentFixture extends OrgFixture {
  space: Json;
  changeRequest: ChangeRequest;
}

export interface ContentForm {
  name: 'space' | 'change request';
  /** the content prefix of the fixture in this form */
  prefix(fx: ContentFixture): string;
  /** the app URL base of its pages */
  appBase(server: TestServer, fx: ContentFixture): string;
}

export const CONTENT_FORMS: ContentForm[] = [
  {
    name: 'space',
    prefix: (fx) => `/v1/spaces/${fx.space.id}/content`,
    appBase: (server, fx) => `${server.config.appBaseUrl}/o/${fx.org.id}/s/${fx.space.id}`,
  },
  {
    name: 'change request',
    // by number: the path accepts the id or the per-space number
    prefix: (fx) => `/v1/spaces/${fx.space.id}/change-requests/${fx.changeRequest.number}/content`,
    appBase: (server, fx) =>
      `${server.config.appBaseUrl}/o/${fx.org.id}/s/${fx.space.id}/~/changes/${fx.changeRequest.number}`,
  },
];

export async function contentFixture(server: TestServer): Promise<ContentFixture> {
  const fx = await createOrg(server.ds);
  const space = await newSpace(server, fx.admin, fx.org.id);
  const changeRequest = await inTransaction(server.ds, (db) =>
    createChangeRequest(db, space.id, { subject: 'edits' }, fx.admin.user.id),
  );
  return { ...fx, space, changeRequest };
}

/** Creates a page in the content at `prefix`. */
export async function createPage(server: TestServer, token: string, prefix: string, body: object): Promise<Json> {
  return (await server.as(token).post(`${prefix}/pages`).send(body).expect(201)).body;
}

/** The canonical API path of the content (a change request by its id), as Location headers give it. */
export function canonicalPrefix(server: TestServer, form: ContentForm, fx: ContentFixture): string {
  const path =
    form.name === 'space'
      ? `/spaces/${fx.space.id}/content`
      : `/spaces/${fx.space.id}/change-requests/${fx.changeRequest.id}/content`;
  return `${server.config.publicBaseUrl}/v1${path}`;
}

/** A PNG file of an IHDR's fields and the IDAT's bytes, with valid chunk checksums. */
export function pngFile(header: Buffer, idat: Buffer): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', idat),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A valid greyscale PNG of the given size. */
export function png(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth; colour type, compression, filter and interlace stay 0
  const rows = Buffer.alloc((width + 1) * height); // each row: filter byte 0, then black pixels
  return pngFile(header, deflateSync(rows));
}

/** Uploads raw bytes as a file of the content. */
export function upload(
  server: TestServer,
  token: string,
  prefix: string,
  name: string,
  bytes: Buffer,
  contentType: string,
) {
  return server.as(token).post(`${prefix}/files`).query({ name }).set('Content-Type', contentType).send(bytes);
}

/** Fetches a download URL of the local blob store through the app, as bytes. */
export function download(server: TestServer, url: string) {
  return request(server.app)
    .get(url.slice(server.config.publicBaseUrl.length))
    .buffer(true)
    .parse((res, callback) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => callback(null, Buffer.concat(chunks)));
    });
}

/**
 * What every page answers the same way: no tags or computed content, and GitBook's default layout (no icon, Git or
 * cover: those optional fields are left out).
 */
export const PAGE_CONSTANTS = {
  kind: 'sheet',
  layout: {
    width: 'default',
    cover: true,
    coverSize: 'hero',
    coverMask: 'none',
    title: true,
    description: true,
    tableOfContents: true,
    outline: true,
    pagination: true,
    metadata: true,
    tags: true,
    actions: true,
    anchors: true,
  },
  variables: {},
  noIndex: false,
  noRobotsIndex: false,
  computed: null,
  computedSeed: null,
  tags: [],
};
