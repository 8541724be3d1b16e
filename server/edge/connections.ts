import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { MAX_USER_AGENT_CHARS, newRequestId, outsideAccessLine } from '../observe/access-log.ts';
import { cut } from '../observe/log-bound.ts';
import { ACCESS_ABORTED } from '../../shared/log-line.ts';
import { LINE_LEVEL } from '../observe/log-levels.ts';
import { pathOf } from '../observe/url-path.ts';
import { isLingering } from './body-limit.ts';

// What one connection may hold. HTTP/1.1 lets a client send requests before reading the
// answers (pipelining, RFC 9112 §9.3.2); Node parses a whole read at once (up to 64 KiB, a few
// hundred requests) and hands every request to the app, whose responses then wait in memory,
// in order, for a client that may never read them. Worse, when that client leaves, Node emits
// 'close' only on the response holding the socket (lib/_http_server.js, socketOnClose): the
// ones queued behind it never close, so whatever waits for their 'close' (the access line,
// the metrics, the render's abort) holds them for good. Measured before this module: 10
// connections × 400 pipelined GETs, never read, left the heap 121 MB larger after the clients
// closed, with 912 access lines for 4,000 requests.

/**
 * Requests one connection may have in flight (parsed, response not finished). Browsers do not
 * pipeline, and curl dropped pipelining in 7.65; a client 16 requests ahead of its answers is
 * a tool or an attack. Enough for any honest one, and 16 pages is a bounded cost per socket.
 */
export const MAX_IN_FLIGHT_PER_CONNECTION = 16;

interface Unserved {
  method: string;
  path: string;
  userAgent?: string;
}

interface Connection {
  readonly inFlight: Set<ServerResponse>;
  /** Set once the connection went past the bound: requests parsed but never served. */
  unserved?: Unserved[];
  /** Bytes that arrived after the bound, never given to the parser. */
  unparsedBytes: number;
}

const CONNECTION = Symbol('connection');
type Tracked = Socket & { [CONNECTION]?: Connection };

export interface ConnectionBound {
  /** True when the request may be served; false when its connection is past the bound. */
  admit(req: IncomingMessage, res: ServerResponse): boolean;
  /** The connection is being dropped: nothing more on it is parsed or answered. */
  dropping(socket: Socket): boolean;
}

/**
 * Past the bound the parser is fed nothing more: the socket is taken back from it (Node does
 * this itself when anything listens for 'data': lib/_http_server.js, unconsume) and what
 * arrives is counted and dropped. Reading on also sees the client leave at once. Deferred past
 * the current read, which the parser is still working through.
 */
function stopParsing(socket: Socket, connection: Connection): void {
  setImmediate(() => {
    if (socket.destroyed) return;
    const drop = (chunk: Buffer) => (connection.unparsedBytes += chunk.length);
    socket.on('data', drop);
    for (const listener of socket.listeners('data')) if (listener !== drop) socket.removeListener('data', listener as () => void);
    socket.resume();
  });
}

export function createConnectionBound(logger: Logger): ConnectionBound {
  /** Every request the parser produced gets a line: the unserved ones, at the end, the last with the bytes never parsed. */
  function logUnserved(socket: Socket, connection: Connection): void {
    const unserved = connection.unserved ?? [];
    const reason = `not served: ${MAX_IN_FLIGHT_PER_CONNECTION} requests were already in flight on this connection`;
    unserved.forEach((request, index) => {
      const line = outsideAccessLine({
        reqId: newRequestId(),
        ...request,
        route: 'pipelining',
        status: 503,
        bytes: 0,
        ip: socket.remoteAddress,
        reason,
      });
      if (request.userAgent !== undefined) line.userAgent = request.userAgent;
      if (index === unserved.length - 1) line.unparsedBytes = connection.unparsedBytes;
      logger[LINE_LEVEL.access](line, ACCESS_ABORTED);
    });
  }

  function closed(socket: Socket, connection: Connection): void {
    // Node's 'close' for the queued responses (what its own onServerResponseClose does for the
    // one holding the socket), so their lines are written and nothing waits on them.
    for (const res of [...connection.inFlight]) {
      res.destroy();
      res.emit('close');
    }
    logUnserved(socket, connection);
  }

  function connectionOf(socket: Tracked): Connection {
    let connection = socket[CONNECTION];
    if (connection === undefined) {
      const created: Connection = { inFlight: new Set(), unparsedBytes: 0 };
      socket.once('close', () => closed(socket, created));
      socket[CONNECTION] = connection = created;
    }
    return connection;
  }

  return {
    admit(req, res) {
      const socket = req.socket as Tracked;
      const connection = connectionOf(socket);
      if (connection.unserved === undefined && connection.inFlight.size < MAX_IN_FLIGHT_PER_CONNECTION) {
        connection.inFlight.add(res);
        // One listener: a response emits 'close' after 'finish' too (Node's resOnFinish).
        res.once('close', () => {
          connection.inFlight.delete(res);
          // A response that leaves its request's body unread (a 4xx before the body was wanted)
          // would keep the connection until the body ends or the request timeout: close it.
          // Past the bound, the connection ends once what it was owed is written.
          // An upload's rest being read after its answer (body-limit.ts) is left to its bounded linger.
          const unread = res.writableFinished && !req.complete && !isLingering(req);
          if (unread || (connection.unserved !== undefined && connection.inFlight.size === 0)) socket.destroySoon();
        });
        return true;
      }
      if (connection.unserved === undefined) {
        connection.unserved = [];
        stopParsing(socket, connection);
      }
      const userAgent = req.headers['user-agent'];
      const request: Unserved = { method: req.method ?? '', path: pathOf(req.url) };
      if (userAgent) request.userAgent = cut(userAgent, MAX_USER_AGENT_CHARS);
      connection.unserved.push(request);
      return false;
    },
    dropping: (socket) => (socket as Tracked)[CONNECTION]?.unserved !== undefined,
  };
}
