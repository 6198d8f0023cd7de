import type { Endpoint } from '../endpoints.ts';
import type { Profile } from '../profile.ts';

// What the export states only because the profile chose it, at a point the spec leaves open,
// marked so that a diff against a target's own document (cli/gate/openapi-diff.ts) can tell a
// contradiction of the spec from a choice the profile made (or kept by default, where a small
// detection budget never reached it): the latter is a note naming the option, never a failure.

/** Who shows a response body or an operation: 'spec', or 'profile' (a choice where the spec is open). */
export const SHOWN_BY = 'x-lendcheck-shown-by';
/** On an operation shown by the profile: the option that puts it in the export. */
export const SHOWN_BY_OPTION = 'x-lendcheck-option';

/**
 * The profile option by which the export has operation `e` at all, where part 4's table does not
 * list it: GET /webhooks and DELETE /webhooks/{webhookId} are not in the table (only "the webhook
 * list ... use[s] the shapes above"; "webhooks can also be set up in the partner dashboard").
 * Undefined for an operation the table lists: missing from a target's document, that stays a
 * failure. The get-rates operation is listed (its path "not shown" is the profile's ratesPath), so
 * it is one of those: a document without it at the path the target was seen to answer fails.
 */
export function operationOption(p: Profile, e: Endpoint): string | undefined {
  switch (e.id) {
    case 'webhooks.list':
      return 'webhooks.listAndDelete';
    case 'webhooks.delete':
      return p.webhooks.listAndDelete ? 'webhooks.listAndDelete' : 'webhooks.deleteWithoutList';
    default:
      return undefined;
  }
}
