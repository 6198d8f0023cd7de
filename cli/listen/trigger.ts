import { request } from 'undici';
import { EVENT_TYPES, type EventType } from '../../contract/index.ts';
import { routePath } from '../../contract/fill-path.ts';

// `lendcheck trigger EVENT`, like `stripe trigger`: one event through the sandbox's
// controls (POST /sandbox/trigger). A target without controls is told apart from a failure:
// events there come only from real activity, and the message says so.

export interface TriggerOptions {
  baseUrl: string;
  apiKey: string;
  type: string;
  positionId?: string;
  userId?: string;
}

export class NoControlsError extends Error {}

export async function triggerEvent(o: TriggerOptions): Promise<{ eventId: string; type: EventType }> {
  if (!(EVENT_TYPES as readonly string[]).includes(o.type)) throw new Error(`unknown event type "${o.type}"; one of ${EVENT_TYPES.join(', ')}`);
  const body = { type: o.type, ...(o.positionId ? { positionId: o.positionId } : {}), ...(o.userId ? { userId: o.userId } : {}) };
  const r = await request(`${o.baseUrl}${routePath('sandbox.trigger')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${o.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const text = await r.body.text();
  // A 404 carrying the spec's error object names what is missing (position_not_found: the
  // control exists, the position does not); only a route that is not there at all is "no controls".
  const code = errorCodeOf(text);
  if (r.statusCode === 404 && code === 'position_not_found') {
    throw new Error(`POST /sandbox/trigger answered 404 position_not_found: ${o.positionId ? `no position ${o.positionId} for this key` : 'the event needs a position'}${messageOf(text)}`);
  }
  if (r.statusCode === 404 || r.statusCode === 405) {
    throw new NoControlsError(
      `${o.baseUrl} has no sandbox controls (POST /sandbox/trigger answered ${r.statusCode}): it cannot be asked for an event; events come from real activity there (place an order, withdraw)`,
    );
  }
  if (r.statusCode < 200 || r.statusCode > 299) throw new Error(`POST /sandbox/trigger answered ${r.statusCode}: ${text.slice(0, 300)}`);
  const j = JSON.parse(text) as { eventId: string; type: EventType };
  return j;
}

function parsed(text: string): { error?: { code?: unknown; message?: unknown } } | undefined {
  try {
    return JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
  } catch {
    return undefined;
  }
}

const errorCodeOf = (text: string) => {
  const c = parsed(text)?.error?.code;
  return typeof c === 'string' ? c : undefined;
};

const messageOf = (text: string) => {
  const m = parsed(text)?.error?.message;
  return typeof m === 'string' && m ? ` (${m})` : '';
};
