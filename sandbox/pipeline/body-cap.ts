import type { Profile } from '../../contract/index.ts';
import { payloadTooLarge } from '../answer/errors.ts';

// The body-size cap (the profile's maxBodyBytes), in one place: a declared Content-Length is
// refused before auth or any read (dispatch.ts), and a body of unknown length (chunked) is
// counted while it is read (request.ts), whichever route reads it.

/** Throws the 413 when a request with a body declares more than the cap. */
export function refuseDeclaredBody(req: { method: string; header(name: string): string | undefined }, profile: Profile): void {
  if (req.method === 'GET' || req.method === 'HEAD') return;
  const declared = req.header('content-length');
  if (declared !== undefined && req.header('transfer-encoding') === undefined && Number(declared) > profile.limits.maxBodyBytes) throw payloadTooLarge(profile);
}

/** Counts a body's bytes as they arrive; `add` answers the 413 to throw once past the cap. */
export class BodyCap {
  private size = 0;
  constructor(private readonly profile: Profile) {}

  add(bytes: number): ReturnType<typeof payloadTooLarge> | undefined {
    this.size += bytes;
    return this.size > this.profile.limits.maxBodyBytes ? payloadTooLarge(this.profile) : undefined;
  }
}
