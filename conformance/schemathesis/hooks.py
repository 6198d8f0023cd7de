# Schemathesis hooks for lendcheck's runs (loaded through SCHEMATHESIS_HOOKS by conformance/schemathesis/run.ts).
#
# ST401 (ignored_auth): after a 2xx with the key, Schemathesis resends the request without a key and with
# an invalid one, and fails the operation unless those probes get 401 or 403 (or a redirect). Without a key
# the probe is counted against the spec's public bucket ("Public endpoints without authentication: 60
# requests per minute", part 8), which a run of Schemathesis empties quickly: the target then answers 429
# rate_limit_exceeded before it looks at the key at all (neutrality soak, seed 3). A 429 accepts nothing, so
# it is not "authentication not enforced"; it is read as a refusal. A 2xx (or any other status) to a probe
# without valid credentials still fails the check. The check takes no expected-statuses setting in
# schemathesis.toml, hence this hook; it patches the one predicate of the pinned version
# (ensure-schemathesis.mjs), and fails loudly if that predicate is gone.
from schemathesis.specs.openapi import checks as _checks

_enforces_auth = _checks._enforces_auth


def _enforces_auth_or_rate_limited(response, authenticated):
    return response.status_code == 429 or _enforces_auth(response, authenticated)


_checks._enforces_auth = _enforces_auth_or_rate_limited
