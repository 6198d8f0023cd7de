import { internalKind, PROBE_URLS, type InternalKind, type Profile } from '../../contract/index.ts';
import { expectClientError, fail, pass, show, type Check } from '../check.ts';
import { webhookSecret } from '../checks/endpoints.ts';
import { findId } from '../body-id.ts';


// Part 2: the subscription names "the partner's HTTPS receiving address". Whether a target must
// refuse a plain http:// address, and addresses inside its own network (loopback, link-local
// 169.254.169.254, private ranges: server-side request forgery, OWASP API7), the spec does not
// say: the profile does (webhooks.requireHttps, webhooks.refuseInternalAddresses). Required and
// accepted: a failure. Not required and accepted: an advisory note with the answer as evidence.

type Probe = InternalKind | 'http';

/** Whether the profile requires this address to be refused. */
export function mustRefuse(profile: Profile, probe: Probe): boolean {
  const w = profile.webhooks;
  if (probe === 'http') return w.requireHttps;
  if (probe === 'loopback') return w.refuseInternalAddresses && !w.allowLoopbackHttp;
  return w.refuseInternalAddresses;
}

export function webhookUrlCheck(profile: Profile): Check {
  return {
    id: 'authz.webhook-url',
    title: 'a subscription to plain http:// or to an address inside the service (loopback, 169.254.169.254, private ranges) is refused where the profile requires it, and reported where it does not',
    requirements: ['HOOK-subscription'],
    needs: ['write'],
    async run(ctx) {
      const deletable = profile.webhooks.listAndDelete || profile.webhooks.deleteWithoutList;
      const notes: string[] = [];
      let evidence;
      for (const [probe, url] of Object.entries(PROBE_URLS) as Array<[Probe, string]>) {
        // The rule the sandbox applies is the one judged here: the probe must be what it claims.
        if (probe !== 'http' && internalKind(url) !== probe) throw new Error(`probe ${url} is not ${probe}`);
        const r = await ctx.call('webhooks.create', { body: { url, events: ['position.liquidated'], secret: webhookSecret(ctx) } });
        evidence ??= r.exchange;
        const accepted = r.status >= 200 && r.status < 300;
        const id = accepted ? findId(r.json, profile.ids.webhook)?.value : undefined;
        if (id && deletable) await ctx.call('webhooks.delete', { params: { webhookId: id } });
        const what = probe === 'http' ? 'a plain http:// address' : `a ${probe} address`;
        if (!accepted) {
          expectClientError(r, `POST /webhooks refusing ${what} (${url}) answers with the error object`);
          notes.push(`${what} (${url}) refused: ${r.status} ${show((r.json as { error?: { code?: unknown } })?.error?.code)}`);
          continue;
        }
        const option = probe === 'http' ? 'webhooks.requireHttps' : 'webhooks.refuseInternalAddresses';
        if (mustRefuse(profile, probe)) fail(`POST /webhooks refuses ${what} (profile ${option})`, `a 4xx naming url for ${url}`, `${r.status}: the subscription ${id ?? ''} was made`, r.exchange);
        notes.push(`advisory: ${what} (${url}) was accepted (${r.status}${id ? `, subscription ${id}` : ''}); the profile does not require a refusal (${option}), but deliveries there ${probe === 'http' ? 'travel unencrypted' : 'reach into the service\'s own network (server-side request forgery)'}`);
      }
      return pass({ notes, ...(evidence ? { exchange: evidence } : {}) });
    },
  };
}
