/** GitBook's own client (`@gitbook/api` 0.137.0) against the app under test, listening on a local port for the file's tests. */
import { GitBookAPI } from '@gitbook/api';
import { createServer, Server } from 'http';
import type { AddressInfo } from 'net';
import type { TestServer } from './server';

/** Call in a test file's top level, after `useServer`: the returned function makes a client for a token. */
export function useGitBookClient(server: TestServer): (token: string) => GitBookAPI {
  let listener: Server;
  let endpoint = '';
  beforeAll(async () => {
    listener = createServer((req, res) => server.app(req, res)).listen(0, '127.0.0.1');
    await new Promise((resolve) => listener.once('listening', resolve));
    endpoint = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => listener.close(resolve)));
  return (token) => new GitBookAPI({ endpoint, authToken: token });
}
