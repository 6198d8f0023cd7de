// One endpoint under a constant arrival rate: the same load for every peer, so figures
// compare. Runs on k6 (relative imports only). Env: TARGET (base URL), PATH_ (request
// path), METHOD, BODY (JSON text), KEY (Bearer key, optional), RATE (req/s), DURATION.
import http from 'k6/http';
import { check } from 'k6';
import type { Options } from 'k6/options';

const rate = Number(__ENV.RATE ?? '2000');

export const options: Options = {
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'med', 'p(90)', 'p(99)', 'max'],
  scenarios: {
    load: {
      executor: 'constant-arrival-rate',
      rate,
      timeUnit: '1s',
      duration: __ENV.DURATION ?? '10s',
      preAllocatedVUs: Number(__ENV.VUS ?? '64'),
      maxVUs: Number(__ENV.MAX_VUS ?? '256'),
    },
  },
};

const url = `${__ENV.TARGET}${__ENV.PATH_}`;
const method = (__ENV.METHOD ?? 'GET').toUpperCase();
const headers: Record<string, string> = { 'content-type': 'application/json' };
if (__ENV.KEY) headers.authorization = `Bearer ${__ENV.KEY}`;

export default function (): void {
  const body = __ENV.BODY ? __ENV.BODY.replace('{{VU}}', String(__VU)).replace('{{ITER}}', String(__ITER)) : null;
  const res = http.request(method, url, body, { headers });
  check(res, { 'the endpoint answers with a 2xx status': (r) => r.status >= 200 && r.status < 300 });
}
