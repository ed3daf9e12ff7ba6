import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StubRequest } from './script';

/** A request handed to a vendor's handler, its JSON body parsed. */
export interface StubIncoming {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  bytes: number;
}

/** What a vendor's handler answers: JSON, or a list of server-sent events. */
export type StubReply =
  | { status: number; json: unknown; headers?: Record<string, string> }
  | { status: 200; sse: Array<{ event?: string; data: unknown }>; headers?: Record<string, string> };

/** A running model stub. */
export interface ModelServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: StubRequest[];
  close(): Promise<void>;
}

/**
 * Starts a loopback HTTP server on a free port that parses each request's JSON body, asks `handle` for the reply,
 * writes it (JSON or SSE) and logs the request. `handle` may tag the log entry with the conversation and turn.
 */
export async function startModelServer(
  handle: (req: StubIncoming, log: StubRequest) => StubReply,
): Promise<ModelServer> {
  const requests: StubRequest[] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const raw = Buffer.concat(parts);
      let body: unknown;
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
      } catch {
        body = raw.toString('utf8');
      }
      const url = new URL(req.url ?? '/', 'http://stub');
      const log: StubRequest = {
        method: req.method ?? 'GET',
        path: url.pathname + url.search,
        headers: req.headers,
        body,
        bytes: raw.length,
        status: 0,
      };
      requests.push(log);
      let reply: StubReply;
      try {
        reply = handle({ method: log.method, path: url.pathname, headers: req.headers, body, bytes: raw.length }, log);
      } catch (e) {
        reply = { status: 500, json: { error: { message: `stub error: ${(e as Error).message}` } } };
      }
      log.status = reply.status;
      if ('sse' in reply) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
        for (const ev of reply.sse)
          res.write(`${ev.event ? `event: ${ev.event}\n` : ''}data: ${JSON.stringify(ev.data)}\n\n`);
        res.end();
      } else {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.json));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
