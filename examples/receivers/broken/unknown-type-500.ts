// MISTAKE: answers 500 to every event type it has no handler for, so those events are
// retried five times and then dropped by the sender.
import { verifyWebhook } from '../../../signing/signature.ts';
import { runIfMain, serve, type ExampleOptions } from '../serve.ts';

export const start = (o: ExampleOptions) =>
  serve(({ headers, rawBody }) => {
    if (!verifyWebhook(rawBody, headers['x-service-signature'] as string | undefined, o.secret).ok) return { status: 401 };
    const { type } = JSON.parse(rawBody) as { type: string };
    switch (type) {
      case 'position.created':
      case 'position.matched':
      case 'position.matured':
        return { status: 200, body: { received: true } };
      default:
        return { status: 500, body: { error: `no handler for ${type}` } };
    }
  }, o.port);
await runIfMain(import.meta.url, start);
