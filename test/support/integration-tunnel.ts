/**
 * A development tunnel on loopback, as `gitbook dev` would run one: it records every dispatch it
 * receives (headers, raw body, the `event` and `environment` parts) and answers each with the next
 * scripted status (200 once the script runs out); `onEvent` may act before the answer (call the API
 * back with the environment's token). And the API calls that set an integration up for it.
 */
import { createHmac } from 'crypto';
import http from 'http';
import type { AddressInfo } from 'net';
import type { Actor } from '../factories';
import { unique } from '../factories';
import type { Json } from './api';
import type { TestServer } from './server';

export interface Dispatch {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  event: Json;
  environment: Json;
}

export class Tunnel {
  readonly received: Dispatch[] = [];
  /** Statuses of the next answers, in order; 200 when empty. A status of 0 drops the connection. */
  statuses: number[] = [];
  /** Headers of every answer other than a 200 (a Retry-After, say). */
  errorHeaders: Record<string, string> = {};
  onEvent: ((dispatch: Dispatch) => Promise<void>) | null = null;
  private server: http.Server | null = null;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    // the platform's multipart, read as GitBook's runtime reads it (Request.formData)
    const form = await new Request('http://tunnel/', {
      method: 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? '' },
      body,
    }).formData();
    const dispatch = {
      path: req.url ?? '',
      headers: req.headers,
      body,
      event: JSON.parse(String(form.get('event'))),
      environment: JSON.parse(String(form.get('environment'))),
    };
    this.received.push(dispatch);
    const status = this.statuses.shift() ?? 200;
    if (status === 0) {
      req.socket.destroy();
      return;
    }
    try {
      if (this.onEvent) await this.onEvent(dispatch);
    } finally {
      res
        .writeHead(status, { 'content-type': 'text/plain', ...(status === 200 ? {} : this.errorHeaders) })
        .end(status === 200 ? 'OK' : `status ${status}`);
    }
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** Checks `X-GitBook-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>` against the secret. */
export function signatureValid(dispatch: Dispatch, secret: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(dispatch.headers['x-gitbook-signature']));
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(`${match[1]}.`).update(dispatch.body).digest('hex');
  return expected === match[2];
}

export interface InstalledIntegration {
  name: string;
  installationId: string;
}

/** Publishes an unlisted integration of the actor's organization and installs it there (every space). */
export async function publishAndInstall(
  server: TestServer,
  owner: Actor,
  organizationId: string,
  scopes = ['space:content:read'],
): Promise<InstalledIntegration> {
  const name = unique('dispatch-');
  await server
    .as(owner.token)
    .post(`/v1/integrations/${name}`)
    .send({
      organization: organizationId,
      title: 'Dispatch test',
      description: 'Receives events',
      script: 'export default {};',
      scopes,
      visibility: 'unlisted',
    })
    .expect(200);
  return { name, installationId: await install(server, owner, name, organizationId) };
}

/** Installs the integration on the organization, covering all its spaces (`space_selection: all`). */
export async function install(server: TestServer, admin: Actor, name: string, organizationId: string): Promise<string> {
  const { id } = (
    await server
      .as(admin.token)
      .post(`/v1/integrations/${name}/installations`)
      .send({ organization: organizationId })
      .expect(201)
  ).body;
  await server
    .as(admin.token)
    .patch(`/v1/integrations/${name}/installations/${id}`)
    .send({ space_selection: 'all' })
    .expect(200);
  return id;
}

export async function devMode(
  server: TestServer,
  owner: Actor,
  name: string,
  tunnelUrl: string,
  all = false,
): Promise<void> {
  await server.as(owner.token).put(`/v1/integrations/${name}/dev`).send({ tunnelUrl, all }).expect(204);
}
