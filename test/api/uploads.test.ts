/**
 * Uploads in the two forms a client sends a file: multipart/form-data (`curl -F`, run as printed) and the raw
 * bytes; what is stored is the file that was sent, never the envelope around it, and every other form is refused.
 */
import { execFile } from 'child_process';
import { mkdtemp, writeFile } from 'fs/promises';
import type { Server } from 'http';
import type { AddressInfo } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import request from 'supertest';
import { promisify } from 'util';
import { loadConfig } from '../../platform/config';
import { ContentFixture, contentFixture, download, png } from '../support/content-forms';
import { startServer, useServer } from '../support/server';

const run = promisify(execFile);
const server = useServer();

let fx: ContentFixture;
let prefix: string;
beforeEach(async () => {
  fx = await contentFixture(server);
  prefix = `/v1/spaces/${fx.space.id}/content`;
});

async function listening(): Promise<{ http: Server; base: string }> {
  const http = server.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  return { http, base: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
}

describe('multipart/form-data uploads', () => {
  it('stores the file of `curl -F file=@logo.png` byte for byte, named and typed by its part', async () => {
    const bytes = png(7, 5);
    const dir = await mkdtemp(join(tmpdir(), 'upload-'));
    await writeFile(join(dir, 'logo.png'), bytes);
    const { http, base } = await listening();
    try {
      const { stdout } = await run('curl', [
        '-sS',
        '-H',
        `Authorization: Bearer ${fx.admin.token}`,
        '-F',
        `file=@${join(dir, 'logo.png')}`,
        `${base}${prefix}/files`,
      ]);
      const file = JSON.parse(stdout);
      expect(file).toMatchObject({ name: 'logo.png', contentType: 'image/png', size: bytes.length });
      expect(file.dimensions).toEqual({ width: 7, height: 5 });
      const fetched = await download(server, file.downloadURL).expect(200);
      expect(Buffer.compare(fetched.body, bytes)).toBe(0);
    } finally {
      http.close();
    }
  });

  it('types a part sent without a useful Content-Type by its bytes; ?name= overrides the filename', async () => {
    const bytes = png(2, 2);
    const generic = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .attach('file', bytes, { filename: 'picture.bin', contentType: 'application/octet-stream' })
      .expect(201);
    expect(generic.body).toMatchObject({ name: 'picture.bin', contentType: 'image/png', size: bytes.length });
    const renamed = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .query({ name: 'renamed.png' })
      .attach('upload', bytes, { filename: 'ignored.png', contentType: 'image/png' })
      .expect(201);
    expect(renamed.body.name).toBe('renamed.png');
    const text = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .attach('file', Buffer.from('plain words'), { filename: 'notes.txt', contentType: 'text/plain' })
      .expect(201);
    expect(text.body.contentType).toBe('text/plain');
  });

  it('refuses a form without a file part, with a text field, with two files, with an empty file or a bad filename', async () => {
    const post = () => server.as(fx.admin.token).post(`${prefix}/files`);
    const field = await post().field('file', 'just text').expect(400);
    expect(field.body.error.message).toBe('file: unknown form field: the form takes one file part, no other field');
    const two = await post()
      .attach('a', Buffer.from('a'), { filename: 'a.txt', contentType: 'text/plain' })
      .attach('b', Buffer.from('b'), { filename: 'b.txt', contentType: 'text/plain' })
      .expect(400);
    expect(two.body.error.message).toMatch(/^request body: the form takes one file part/);
    const empty = await post()
      .attach('file', Buffer.alloc(0), { filename: 'e.txt', contentType: 'text/plain' })
      .expect(400);
    expect(empty.body.error.message).toBe('file: must not be empty');
    const badName = await post()
      .attach('file', Buffer.from('x'), { filename: `${'a'.repeat(256)}.txt`, contentType: 'text/plain' })
      .expect(400);
    expect(badName.body.error.message).toMatch(/^filename: must be at most 255 characters/);
    const none = await post().set('Content-Type', 'multipart/form-data; boundary=xyz').send('--xyz--\r\n').expect(400);
    expect(none.body.error.message).toBe('file: the form has no file part (curl -F file=@path)');
    const noBoundary = await post().set('Content-Type', 'multipart/form-data').send('abc').expect(400);
    expect(noBoundary.body.error.message).toMatch(/^request body: malformed multipart\/form-data/);
    const truncated = await post()
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="file"; filename="t.txt"\r\n\r\nno end')
      .expect(400);
    expect(truncated.body.error.message).toMatch(/^(request body: malformed|file: the file part ended early)/);
    expect((await server.as(fx.admin.token).get(`${prefix}/files`).expect(200)).body.count).toBe(0);
  });

  it('answers 413 naming the limit for a file part over FILE_MAX_BYTES, and stores nothing', async () => {
    const small = await startServer({ blobs: { ...loadConfig().blobs, fileMaxBytes: 16 } });
    try {
      const own = await contentFixture(small);
      const at = `/v1/spaces/${own.space.id}/content/files`;
      const res = await small
        .as(own.admin.token)
        .post(at)
        .attach('file', Buffer.alloc(17), { filename: 'big.bin', contentType: 'application/octet-stream' })
        .expect(413);
      expect(res.body).toEqual({ error: { code: 413, message: 'request body: must be at most 16 bytes' } });
      await small
        .as(own.admin.token)
        .post(at)
        .attach('file', Buffer.alloc(16, 1), { filename: 'fits.bin', contentType: 'application/octet-stream' })
        .expect(201);
      expect(
        (await small.as(own.admin.token).get(`/v1/spaces/${own.space.id}/content/files`).expect(200)).body.count,
      ).toBe(1);
    } finally {
      await small.close();
    }
  });
});

describe('forms a file cannot arrive in', () => {
  it.each([
    ['application/json', '{"a":1}'],
    ['application/x-www-form-urlencoded', 'a=1'],
    ['multipart/mixed; boundary=x', '--x--'],
  ])('refuses %s with 415 naming the two forms that work', async (type, body) => {
    const res = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .query({ name: 'x.bin' })
      .set('Content-Type', type)
      .send(body)
      .expect(415);
    expect(res.body.error.message).toContain('multipart/form-data with one file part (curl -F file=@logo.png)');
    expect(res.body.error.message).toContain("raw bytes with the file's own Content-Type");
  });

  it('types raw bytes sent as application/octet-stream (or with no type) by their signature', async () => {
    const bytes = png(3, 3);
    const res = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .query({ name: 'raw.png' })
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(201);
    expect(res.body.contentType).toBe('image/png');
    const noName = await server
      .as(fx.admin.token)
      .post(`${prefix}/files`)
      .set('Content-Type', 'image/png')
      .send(bytes)
      .expect(400);
    expect(noName.body.error.message).toMatch(/^name: is required for raw bytes: add \?name=logo.png/);
  });
});

describe('the reference', () => {
  it('documents both forms of the upload', async () => {
    const doc = (await request(server.app).get('/v1/openapi.json').expect(200)).body;
    const content = doc.paths['/v1/spaces/{spaceId}/content/files'].post.requestBody.content;
    expect(Object.keys(content).sort()).toEqual(['application/octet-stream', 'multipart/form-data']);
  });
});
