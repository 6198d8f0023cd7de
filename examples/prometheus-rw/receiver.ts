// A tiny Prometheus remote-write receiver: it decodes what k6's experimental-prometheus-rw
// output sends (snappy-compressed protobuf WriteRequest) and keeps the samples, so a test
// can assert what k6 really streamed. Run it alone to watch a load run arrive:
//   node --import tsx examples/prometheus-rw/receiver.ts 9090
//   K6_PROMETHEUS_RW_SERVER_URL=http://127.0.0.1:9090/api/v1/write node cli/bin.js load --scenario mixed --smoke --out experimental-prometheus-rw
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';
import { uncompress } from 'snappyjs';

// The subset of prometheus/prompb/remote.proto and types.proto a receiver needs (field
// numbers as upstream; exemplars, histograms and metadata are left undecoded).
const PROTO = `
syntax = "proto3";
package prometheus;
message WriteRequest { repeated TimeSeries timeseries = 1; }
message TimeSeries { repeated Label labels = 1; repeated Sample samples = 2; }
message Label { string name = 1; string value = 2; }
message Sample { double value = 1; int64 timestamp = 2; }
`;
const WriteRequest = protobuf.parse(PROTO).root.lookupType('prometheus.WriteRequest');

export interface Series {
  labels: Record<string, string>;
  samples: Array<{ value: number; timestamp: number }>;
}

export function decodeWriteRequest(body: Uint8Array): Series[] {
  const msg = WriteRequest.toObject(WriteRequest.decode(uncompress(body)), { longs: Number, defaults: true }) as {
    timeseries: Array<{ labels: Array<{ name: string; value: string }>; samples: Array<{ value: number; timestamp: number }> }>;
  };
  return msg.timeseries.map((t) => ({ labels: Object.fromEntries(t.labels.map((l) => [l.name, l.value])), samples: t.samples }));
}

export interface Receiver {
  url: string;
  /** Every series of every request received, in arrival order. */
  series: Series[];
  requests: number;
  errors: string[];
  close(): Promise<void>;
}

export async function startReceiver(port = 0): Promise<Receiver> {
  const r: Omit<Receiver, 'url' | 'close'> = { series: [], requests: 0, errors: [] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        if (req.method !== 'POST' || req.headers['content-encoding'] !== 'snappy') throw new Error(`expected POST with Content-Encoding: snappy / received ${req.method} ${req.headers['content-encoding'] ?? '(none)'}`);
        r.series.push(...decodeWriteRequest(Buffer.concat(chunks)));
        r.requests++;
        res.writeHead(204).end();
      } catch (e) {
        r.errors.push((e as Error).message);
        res.writeHead(400).end((e as Error).message);
      }
    });
  });
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  const { port: bound } = server.address() as AddressInfo;
  return Object.assign(r, {
    url: `http://127.0.0.1:${bound}/api/v1/write`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  });
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, ''))) {
  const rx = await startReceiver(Number(process.argv[2] ?? 9090));
  console.log(`remote-write receiver on ${rx.url}`);
  let seen = 0;
  setInterval(() => {
    const n = rx.series.reduce((a, s) => a + s.samples.length, 0);
    if (n !== seen) console.log(`${rx.requests} requests, ${rx.series.length} series, ${(seen = n)} samples`);
  }, 1000);
}
