/**
 * Requests node's HTTP parser refuses before Express sees them (a URL or headers over the header
 * size limit, malformed HTTP) get the JSON error body every other error has, not node's bare status line.
 */
import { type Server, STATUS_CODES } from 'http';
import type { Socket } from 'net';

/** The status node itself would answer, with our message. */
function answerTo(code: string | undefined): [status: number, message: string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'request headers (the URL included) are too large'];
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return [413, 'chunk extensions are too large'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'the request took too long to arrive'];
  return [400, 'malformed HTTP request'];
}

export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // as node does: write nothing into a response already under way, nor to a peer that is gone
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, message] = answerTo(err.code);
    const body = JSON.stringify({ error: { code: status, message } });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
