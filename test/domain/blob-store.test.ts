/** Both blob back ends on real storage: the local folder through the API's download route, S3 against versitygw. */
import { CreateBucketCommand, DeleteBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { randomBytes, randomUUID } from 'crypto';
import { promises as fs } from 'fs';
import * as http from 'http';
import type { AddressInfo } from 'net';
import * as os from 'os';
import * as path from 'path';
import request from 'supertest';
import { loadConfig } from '../../platform/config';
import { createBlobStore } from '../../platform/storage';
import { type BlobStore, BlobTooLarge } from '../../platform/storage/blob-store';
import { attachmentDisposition } from '../../platform/storage/content-disposition';
import { LocalBlobStore } from '../../platform/storage/local-blob-store';
import { S3BlobStore } from '../../platform/storage/s3-blob-store';
import { startServer, TestServer } from '../support/server';

const FILENAME = 'Résumé "final" (v2)*.pdf';
const DISPOSITION = `attachment; filename="R_sum_ _final_ (v2)*.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22%20%28v2%29%2A.pdf`;

/** putFile of a file of `size` random bytes, then download into another file: the same bytes, and the size stored. */
async function expectFileRoundTrip(store: BlobStore, key: string, size: number): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'blob-test-'));
  try {
    const bytes = randomBytes(size);
    await fs.writeFile(path.join(dir, 'in'), bytes);
    expect(await store.putFile(key, path.join(dir, 'in'), 'application/pdf')).toBe(size);
    await store.download(key, path.join(dir, 'out'));
    expect(Buffer.compare(await fs.readFile(path.join(dir, 'out')), bytes)).toBe(0);
    expect((await store.read(key)).length).toBe(size);
    await expect(store.download(`${key}-missing`, path.join(dir, 'none'))).rejects.toThrow();
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and an RFC 5987 name', () => {
    expect(attachmentDisposition(FILENAME)).toBe(DISPOSITION);
    expect(attachmentDisposition("it's 100%.txt")).toBe(
      `attachment; filename="it's 100_.txt"; filename*=UTF-8''it%27s%20100%25.txt`,
    );
    expect(attachmentDisposition('bad\uD800.txt')).toBe(
      `attachment; filename="bad_.txt"; filename*=UTF-8''bad%EF%BF%BD.txt`,
    );
  });
});

describe('local blob store and GET /v1/blobs/{key}', () => {
  let server: TestServer;
  let store: BlobStore;
  beforeAll(async () => {
    server = await startServer({ blobs: { ...loadConfig().blobs, backend: 'local' } });
    store = createBlobStore(server.config);
  });
  afterAll(async () => {
    await server.close();
  });

  /** The path and query of a URL the store made, to send to the in-process app. */
  const pathOf = (url: string) => {
    expect(url.startsWith(`${server.config.publicBaseUrl}/v1/blobs/`)).toBe(true);
    return url.slice(server.config.publicBaseUrl.length);
  };
  const download = (url: string) => request(server.app).get(pathOf(url)).responseType('blob'); // the raw bytes as a Buffer, whatever the media type;
  const newKey = () => `test/${randomUUID()}/file.bin`;

  it('is the back end createBlobStore builds with BLOB_STORE=local', () => {
    expect(store).toBeInstanceOf(LocalBlobStore);
  });

  it('stores a local file streamed, and downloads a blob into one, byte for byte', async () => {
    await expectFileRoundTrip(store, newKey(), 3 * 1024 * 1024 + 17);
  });

  it('reads up to maxBytes, and refuses a larger blob with its size, unread', async () => {
    const key = newKey();
    const bytes = randomBytes(5000);
    await store.put(key, bytes, 'application/octet-stream');
    expect(Buffer.compare(await store.read(key, { maxBytes: 5000 }), bytes)).toBe(0);
    await expect(store.read(key, { maxBytes: 4999 })).rejects.toEqual(new BlobTooLarge(5000, 4999));
  });

  it('serves the bytes anonymously with the signed name and type', async () => {
    const key = newKey();
    const bytes = randomBytes(5000);
    await store.put(key, bytes, 'application/pdf');
    const res = await download(await store.downloadUrl(key, { filename: FILENAME, contentType: 'application/pdf' }));
    expect(res.status).toBe(200);
    expect(Buffer.compare(res.body, bytes)).toBe(0);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-length']).toBe('5000');
    expect(res.headers['content-disposition']).toBe(DISPOSITION);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('private');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('keeps a text type exactly as signed (no charset added)', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('hello'), 'text/plain');
    const res = await download(await store.downloadUrl(key, { filename: 'a.txt', contentType: 'text/plain' }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.body.toString()).toBe('hello');
  });

  it('refuses a tampered signature, name, type or expiry with 403', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('secret'), 'text/plain');
    const url = new URL(await store.downloadUrl(key, { filename: 'a.txt', contentType: 'text/plain' }));
    const tamper = async (field: string, value: string) => {
      const u = new URL(url);
      u.searchParams.set(field, value);
      return download(u.toString());
    };
    const signature = url.searchParams.get('signature')!;
    for (const res of [
      await tamper('signature', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
      await tamper('filename', 'b.txt'),
      await tamper('contentType', 'text/html'),
      await tamper('expires', String(Number(url.searchParams.get('expires')) + 3600)),
    ]) {
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body.toString())).toEqual({
        error: { code: 403, message: 'the download link is invalid or has expired' },
      });
    }
    // a signature made for another key does not open this one
    const other = new URL(await store.downloadUrl(newKey(), { filename: 'a.txt', contentType: 'text/plain' }));
    const res = await download(`${url.origin}${url.pathname}${other.search}`);
    expect(res.status).toBe(403);
  });

  it('serves a blob signed as text/html as a sandboxed attachment, never as a page of the API origin', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('<script>alert(document.cookie)</script>'), 'text/html');
    const res = await download(await store.downloadUrl(key, { filename: 'page.html', contentType: 'text/html' }));
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
  });

  it('answers 404, not 500, for a validly signed key outside the key alphabet', async () => {
    // the path exactly as given (no client normalises `..` away), like curl --path-as-is
    const listener = server.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    const { port } = listener.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path }, (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          })
          .on('error', reject);
      });
    try {
      for (const [key, path] of [
        ['files/a b', '/v1/blobs/files/a%20b'],
        ['files/../..', '/v1/blobs/files/../..'],
        ['files/%2e', '/v1/blobs/files/%252e'],
      ]) {
        const { search } = new URL(await store.downloadUrl(key, { filename: 'a.txt', contentType: 'text/plain' }));
        const res = await get(`${path}${search}`);
        expect([key, res.status, JSON.parse(res.body)]).toEqual([
          key,
          404,
          { error: { code: 404, message: 'blob not found' } },
        ]);
      }
    } finally {
      await new Promise((resolve) => listener.close(resolve));
    }
  });

  it('refuses an expired link with 403', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('old'), 'text/plain');
    const c = server.config;
    const expiredAMinuteAgo = new LocalBlobStore(c.blobs.dir, c.publicBaseUrl, c.blobs.urlSecret, -60);
    const url = await expiredAMinuteAgo.downloadUrl(key, { filename: 'a.txt', contentType: 'text/plain' });
    expect(Number(new URL(url).searchParams.get('expires'))).toBeLessThan(Date.now() / 1000);
    const res = await download(url);
    expect(res.status).toBe(403);
  });

  it('answers 404 for a validly signed link to a missing or deleted blob', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('soon gone'), 'text/plain');
    const url = await store.downloadUrl(key, { filename: 'a.txt', contentType: 'text/plain' });
    expect((await download(url)).status).toBe(200);
    await store.delete(key);
    await store.delete(key); // deleting again is fine
    const res = await download(url);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString())).toEqual({ error: { code: 404, message: 'blob not found' } });
    // a directory on the key's path is no blob either
    const dir = await download(
      await store.downloadUrl(key.split('/').slice(0, 2).join('/'), { filename: 'a', contentType: 'text/plain' }),
    );
    expect(dir.status).toBe(404);
  });

  it('refuses a link that lost its query, or part of it, with 403 saying so', async () => {
    const url = new URL(await store.downloadUrl(newKey(), { filename: 'a.txt', contentType: 'text/plain' }));
    const stripped = new URL(url);
    stripped.search = '';
    const whole = await download(stripped.toString());
    expect({ status: whole.status, body: JSON.parse(whole.body.toString()) }).toEqual({
      status: 403,
      body: {
        error: {
          code: 403,
          message:
            'the download link is incomplete: it lost filename, contentType, expires, signature from its query; use the whole link, or ask the API for a fresh one',
        },
      },
    });
    const unsigned = new URL(url);
    unsigned.searchParams.delete('signature');
    expect(JSON.parse((await download(unsigned.toString())).body.toString()).error.message).toBe(
      'the download link is incomplete: it lost signature from its query; use the whole link, or ask the API for a fresh one',
    );
  });

  it('refuses a malformed query with 400 naming the field', async () => {
    const key = newKey();
    const url = new URL(await store.downloadUrl(key, { filename: 'a.txt', contentType: 'text/plain' }));
    const badExpiry = new URL(url);
    badExpiry.searchParams.set('expires', 'soon');
    expect(JSON.parse((await download(badExpiry.toString())).body.toString())).toEqual({
      error: { code: 400, message: 'expires: has an invalid format' },
    });
    const extra = new URL(url);
    extra.searchParams.set('download', '1');
    expect(JSON.parse((await download(extra.toString())).body.toString())).toEqual({
      error: { code: 400, message: 'download: unknown field; accepted: filename, contentType, expires, signature' },
    });
  });

  it('is listed in the OpenAPI document as an anonymous extension', async () => {
    const res = await request(server.app).get('/v1/openapi.json');
    const op = res.body.paths['/v1/blobs/{key}'].get;
    expect(op.operationId).toBe('downloadBlob');
    expect(op.security).toEqual([]);
    expect(op['x-extension']).toBe(true);
  });

  it('answers 404 when the service stores blobs in S3', async () => {
    const key = newKey();
    await store.put(key, Buffer.from('local'), 'text/plain');
    const url = await store.downloadUrl(key, { filename: 'a.txt', contentType: 'text/plain' });
    const base = loadConfig();
    const s3Server = await startServer({ blobs: { ...base.blobs, backend: 's3' } });
    try {
      const res = await request(s3Server.app).get(pathOf(url));
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: 'blob not found' } });
    } finally {
      await s3Server.close();
    }
  });
});

describe('S3 blob store against versitygw', () => {
  const base = loadConfig().blobs;
  // a bucket of its own, so creation on first use is exercised on every run
  const bucket = `docs-test-${Date.now()}-${randomBytes(3).toString('hex')}`;
  const settings = { ...base.s3, bucket };
  const admin = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: true,
  });
  const keys: string[] = [];
  const newKey = () => {
    const key = `test/${randomUUID()}/file.bin`;
    keys.push(key);
    return key;
  };
  afterAll(async () => {
    const store = new S3BlobStore(settings, 60);
    for (const key of keys) await store.delete(key);
    await admin.send(new DeleteBucketCommand({ Bucket: bucket }));
    admin.destroy();
  });

  it('is the back end createBlobStore builds with BLOB_STORE=s3', () => {
    const config = loadConfig();
    expect(createBlobStore({ ...config, blobs: { ...config.blobs, backend: 's3' } })).toBeInstanceOf(S3BlobStore);
  });

  it('refuses a URL lifetime beyond what SigV4 presigning allows', () => {
    expect(() => new S3BlobStore(settings, 8 * 24 * 3600)).toThrow(
      'BLOB_URL_TTL_SECONDS: must be at most 604800 with BLOB_STORE=s3, got 691200',
    );
  });

  it('creates its bucket on first use, also when two stores race for it', async () => {
    await expect(admin.send(new HeadBucketCommand({ Bucket: bucket }))).rejects.toMatchObject({
      $metadata: { httpStatusCode: 404 },
    });
    await Promise.all([
      new S3BlobStore(settings, 60).put(newKey(), Buffer.from('one'), 'text/plain'),
      new S3BlobStore(settings, 60).put(newKey(), Buffer.from('two'), 'text/plain'),
    ]);
    await expect(admin.send(new HeadBucketCommand({ Bucket: bucket }))).resolves.toBeDefined();
    // what the loser of such a race gets, and the store tolerates
    await expect(admin.send(new CreateBucketCommand({ Bucket: bucket }))).rejects.toMatchObject({
      name: expect.stringMatching(/^BucketAlready(OwnedByYou|Exists)$/),
    });
  });

  it('stores a file larger than one part as a multipart upload, and downloads it byte for byte', async () => {
    // past the 8 MiB part size: three parts, the last a short one
    await expectFileRoundTrip(new S3BlobStore(settings, 60), newKey(), 17 * 1024 * 1024 + 5);
  });

  it('puts, serves through a presigned URL with name and type, and deletes', async () => {
    const store = new S3BlobStore(settings, 60);
    const key = newKey();
    const bytes = randomBytes(5000);
    await store.put(key, bytes, 'application/octet-stream');
    const url = await store.downloadUrl(key, { filename: FILENAME, contentType: 'application/pdf' });
    expect(url.startsWith(`${settings.endpoint}/${bucket}/${key}?`)).toBe(true);
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('60');

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), bytes)).toBe(0);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe('5000');
    expect(res.headers.get('content-disposition')).toBe(DISPOSITION);

    // the signature covers the response overrides
    const tampered = new URL(url);
    tampered.searchParams.set('response-content-type', 'text/html');
    expect((await fetch(tampered)).status).toBe(403);

    await store.delete(key);
    await store.delete(key); // deleting again is fine
    expect([403, 404]).toContain((await fetch(url)).status);
  });

  it('reads up to maxBytes, and refuses a larger blob with its size, its body not downloaded', async () => {
    const store = new S3BlobStore(settings, 60);
    const key = newKey();
    const bytes = randomBytes(200_000);
    await store.put(key, bytes, 'application/octet-stream');
    await expect(store.read(key, { maxBytes: 1000 })).rejects.toEqual(new BlobTooLarge(200_000, 1000));
    // the closed answer leaves the client usable
    expect(Buffer.compare(await store.read(key, { maxBytes: 200_000 }), bytes)).toBe(0);
    expect(Buffer.compare(await store.read(key), bytes)).toBe(0);
  });

  it('presigns for the public endpoint when it differs from the one the service uses', async () => {
    const store = new S3BlobStore({ ...settings, publicEndpoint: 'http://files.example:9000' }, 60);
    const url = await store.downloadUrl('a/b.txt', { filename: 'b.txt', contentType: 'text/plain' });
    expect(url.startsWith(`http://files.example:9000/${bucket}/a/b.txt?`)).toBe(true);
  });

  it('is reachable while the server answers, a bucket still to be made too; not with wrong keys, nor when the server hangs', async () => {
    const signal = () => AbortSignal.timeout(1000);
    await expect(new S3BlobStore(settings, 60).reachable(signal())).resolves.toBeUndefined();
    await expect(
      new S3BlobStore({ ...settings, bucket: `${bucket}-missing` }, 60).reachable(signal()),
    ).resolves.toBeUndefined();
    await expect(new S3BlobStore({ ...settings, secretAccessKey: 'wrong' }, 60).reachable(signal())).rejects.toThrow();
    // accepts connections, never answers
    const hung = http.createServer(() => undefined);
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
    const start = Date.now();
    await expect(new S3BlobStore({ ...settings, endpoint }, 60).reachable(signal())).rejects.toThrow();
    expect(Date.now() - start).toBeLessThan(2000);
    hung.closeAllConnections();
    await new Promise((resolve) => hung.close(resolve));
  });

  it('deletes without error when the bucket does not exist', async () => {
    await expect(
      new S3BlobStore({ ...settings, bucket: `${bucket}-missing` }, 60).delete('a'),
    ).resolves.toBeUndefined();
  });
});
