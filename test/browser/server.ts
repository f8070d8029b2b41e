// Tiny static file server on 127.0.0.1 for the browser test: maps URL prefixes to directories.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { listenOnLoopback } from '../helpers/loopback.js';

/** A running server: `origin` is `http://127.0.0.1:PORT`; `close()` stops it. */
export interface StaticServer {
  readonly origin: string;
  /** Request paths served so far, in order (to assert what the page really loaded). */
  readonly requests: string[];
  close(): Promise<void>;
}

// Module scripts and workers are refused by browsers unless served with a JavaScript MIME type.
const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

/**
 * Serves files from `mounts` (`{ '/dist/': '/abs/dist', '/': '/abs/page' }`, longest
 * prefix first) on an ephemeral port of 127.0.0.1. Paths leaving a mount are 403.
 * @example const server = await startStaticServer({ '/': dir }); await fetch(server.origin + '/page.html');
 */
export async function startStaticServer(mounts: Record<string, string>): Promise<StaticServer> {
  const prefixes = Object.keys(mounts).sort((a, b) => b.length - a.length);
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(pathname);
    const prefix = prefixes.find((p) => pathname.startsWith(p));
    if (prefix === undefined) {
      res.writeHead(404).end('no mount');
      return;
    }
    const root = normalize(mounts[prefix]!);
    const file = normalize(join(root, pathname.slice(prefix.length)));
    if (file !== root && !file.startsWith(root.endsWith(sep) ? root : root + sep)) {
      res.writeHead(403).end('outside mount');
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, {
          'content-type': MIME[extname(file)] ?? 'application/octet-stream',
          'cache-control': 'no-store',
        });
        res.end(body);
      },
      () => res.writeHead(404).end('not found'),
    );
  });
  const { origin, close } = await listenOnLoopback(server);
  return { origin, requests, close };
}
