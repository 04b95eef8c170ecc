/**
 * Blobs in a bucket of any S3-compatible server (path-style addressing); download URLs are presigned
 * GetObject requests that make the server answer with the file's name and type.
 */
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutObjectCommand,
  S3Client,
  S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { createReadStream, createWriteStream } from 'fs';
import { stat } from 'fs/promises';
import type { Readable } from 'stream';
import { pipeline } from 'stream/promises';
import type { Config } from '../config';
import { type BlobStore, BlobTooLarge, type DownloadOptions } from './blob-store';
import { attachmentDisposition } from './content-disposition';

/** SigV4 refuses presigned URLs valid for longer than seven days. */
const MAX_URL_TTL_SECONDS = 7 * 24 * 3600;

export type S3Settings = Config['blobs']['s3'];

function clientConfig(settings: S3Settings, endpoint: string): S3ClientConfig {
  return {
    endpoint,
    region: settings.region,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    forcePathStyle: true,
    // checksums only where S3 requires them: not every S3-compatible server accepts the SDK's default CRC headers
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
}

function isError(err: unknown, ...names: string[]): boolean {
  return (
    err instanceof S3ServiceException &&
    (names.includes(err.name) || names.includes(String(err.$metadata.httpStatusCode)))
  );
}

export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  /** Signing is local, so presigning uses a client pointed at the endpoint the downloaders reach. */
  private readonly presigner: S3Client;
  /** Settles once the bucket is known to exist; a failure is forgotten so the next call retries. */
  private bucketReady: Promise<void> | null = null;

  constructor(
    private readonly settings: S3Settings,
    private readonly ttlSeconds: number,
  ) {
    if (ttlSeconds > MAX_URL_TTL_SECONDS)
      throw new Error(
        `BLOB_URL_TTL_SECONDS: must be at most ${MAX_URL_TTL_SECONDS} with BLOB_STORE=s3, got ${ttlSeconds}`,
      );
    this.client = new S3Client(clientConfig(settings, settings.endpoint));
    this.presigner = new S3Client(clientConfig(settings, settings.publicEndpoint));
  }

  private ensureBucket(): Promise<void> {
    this.bucketReady ??= this.createBucketIfMissing().catch((err) => {
      this.bucketReady = null;
      throw err;
    });
    return this.bucketReady;
  }

  private async createBucketIfMissing(): Promise<void> {
    const Bucket = this.settings.bucket;
    try {
      await this.client.send(new HeadBucketCommand({ Bucket }));
      return;
    } catch (err) {
      if (!isError(err, 'NotFound', 'NoSuchBucket', '404')) throw err;
    }
    try {
      await this.client.send(new CreateBucketCommand({ Bucket }));
    } catch (err) {
      // another process created it in the meantime
      if (!isError(err, 'BucketAlreadyOwnedByYou', 'BucketAlreadyExists')) throw err;
    }
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.ensureBucket();
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  async putFile(key: string, file: string, contentType: string): Promise<number> {
    await this.ensureBucket();
    const { size } = await stat(file);
    // parts of 8 MiB, two in flight: the memory of a large file's upload is bounded whatever its size
    await new Upload({
      client: this.client,
      params: { Bucket: this.settings.bucket, Key: key, Body: createReadStream(file), ContentType: contentType },
      partSize: 8 * 1024 * 1024,
      queueSize: 2,
    }).done();
    return size;
  }

  async download(key: string, file: string): Promise<void> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
    if (!answer.Body) throw new Error(`blob ${key} has no body`);
    await pipeline(answer.Body as Readable, createWriteStream(file));
  }

  async read(key: string, options: { maxBytes?: number } = {}): Promise<Buffer> {
    const answer = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
    if (!answer.Body) throw new Error(`blob ${key} has no body`);
    const size = answer.ContentLength ?? 0;
    if (options.maxBytes !== undefined && size > options.maxBytes) {
      // in Node the body is the response stream: closed, its bytes are never downloaded
      (answer.Body as Readable).destroy();
      throw new BlobTooLarge(size, options.maxBytes);
    }
    return Buffer.from(await answer.Body.transformToByteArray());
  }

  async downloadUrl(key: string, options: DownloadOptions): Promise<string> {
    const command = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(options.filename),
      ResponseContentType: options.contentType,
    });
    return getSignedUrl(this.presigner, command, { expiresIn: options.ttlSeconds ?? this.ttlSeconds });
  }

  async reachable(signal: AbortSignal): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.settings.bucket }), { abortSignal: signal });
    } catch (err) {
      // the server answers; the bucket is created on first use
      if (!isError(err, 'NotFound', 'NoSuchBucket', '404')) throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
    } catch (err) {
      // no bucket, no blob: deleting is already done
      if (!isError(err, 'NoSuchBucket')) throw err;
    }
  }
}
