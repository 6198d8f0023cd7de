import { createServer, type Server } from 'node:http';

// The app's fetch-style webhook handler on a loopback port (the startSandbox and container
// ways deliver over HTTP): node's request turned into a Request, the Response written back.

export function nodeReceiver(handle: (req: Request) => Promise<Response>, port = 0, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const request = new Request(`http://${host}${req.url ?? '/'}`, { method: req.method, headers, body: Buffer.concat(chunks) });
      handle(request).then(
        async (r) => res.writeHead(r.status, Object.fromEntries(r.headers)).end(Buffer.from(await r.arrayBuffer())),
        () => res.writeHead(500).end(),
      );
    });
  });
  return new Promise((resolve) => server.listen(port, host, () => resolve(server)));
}
