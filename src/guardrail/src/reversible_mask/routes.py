"""Which proxy routes may carry a request past the guardrail: deny by default.

The guardrail's hooks run only where the proxy calls them. A route that sends text to a model
provider without them (token counting, the provider pass-through routes, anything a new proxy
release adds) must not forward a dictionary term. Every request is classified by its path:

* `HOOKED`: the routes whose pre-call, post-call and logging hooks this package is tested on
  (chat and text completions, /v1/messages, /v1/responses), and the non-text routes the hooks
  skip by design (embeddings, images, audio, moderations, rerank): passed on.
* `COUNTED`: token counting, which has no hook and answers only numbers: the body is masked
  as text (the count is that of the masked text) and passed on.
* any other route the proxy itself classifies as a model route (`is_model_route`, injected by
  the adapter from the proxy's own route table), or under a pass-through prefix: refused
  with a typed 403, or with `unguarded_routes: mask` its JSON body is masked as text (nothing
  is restored in the answer).
* routes outside the proxy's model-route list that call a model themselves (`MODEL_CALLERS`,
  found by the canary walk over each version's routes: the usage dashboard's AI chat): as model
  routes.
* every other route (key, team, model and spend management, health, the UI): passed on; they
  reach no provider.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import Enum

BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
MODES = ("refuse", "mask")


class Decision(Enum):
    FORWARD = "forward"
    MASK = "mask"
    REFUSE = "refuse"


def _paths(*suffixes: str, prefixes: Iterable[str] = ("", "/v1")) -> frozenset[str]:
    return frozenset(prefix + suffix for prefix in prefixes for suffix in suffixes)


# Route templates as the proxy declares them (a path is matched to its template first, so
# `/openai/v1/chat/completions`, which the proxy serves through its `/openai/{endpoint}`
# pass-through, is never taken for `/v1/chat/completions`).
DEPLOYMENT_PREFIXES = ("/openai/deployments/{model}", "/engines/{model}")
HOOKED = (
    _paths("/chat/completions", "/completions", "/embeddings", prefixes=("", "/v1"))
    | _paths("/chat/completions", "/completions", "/embeddings", prefixes=DEPLOYMENT_PREFIXES)
    | _paths("/messages", prefixes=("/v1",))
    | _paths("/responses", prefixes=("", "/v1", "/openai/v1"))
    | _paths(
        "/images/generations", "/images/edits", "/images/variations", "/audio/speech",
        "/audio/transcriptions", "/audio/translations", "/moderations", "/rerank",
    )
    | {"/v2/rerank"}
)  # fmt: skip
COUNTED = (
    _paths("/messages/count_tokens", prefixes=("/v1",))
    | _paths("/responses/input_tokens", prefixes=("", "/v1", "/openai/v1"))
    | _paths("/models/{model_name}:countTokens", prefixes=("", "/v1beta"))
    | {"/utils/token_counter"}
)


MODEL_CALLERS = frozenset({"/usage/ai/chat"})


class RoutePolicy:
    def __init__(
        self,
        is_model_route: Callable[[str], bool],
        pass_through_prefixes: Iterable[str] = (),
        mode: str = "refuse",
    ) -> None:
        if mode not in MODES:
            raise ValueError(mode)
        self._is_model_route = is_model_route
        self._prefixes = tuple(p.rstrip("/") for p in pass_through_prefixes if p.strip("/"))
        self.mode = mode

    def decide(self, method: str, path: str, template: str | None = None) -> Decision:
        """`template`: the proxy's route template the path matched (None: no route matched)."""
        path, template = _normal(path), _normal(template or path)
        if method == "WEBSOCKET":
            return Decision.REFUSE if self._reaches_a_model(path) else Decision.FORWARD
        if method.upper() not in BODY_METHODS:
            return Decision.FORWARD
        if template in HOOKED:
            return Decision.FORWARD
        if template in COUNTED:
            return Decision.MASK
        if self._reaches_a_model(path):
            return Decision.MASK if self.mode == "mask" else Decision.REFUSE
        return Decision.FORWARD

    def _reaches_a_model(self, path: str) -> bool:
        if path in MODEL_CALLERS:
            return True
        if any(path == p or path.startswith(p + "/") for p in self._prefixes):
            return True
        return self._is_model_route(path)


def _normal(path: str) -> str:
    path = re.sub(r"/{2,}", "/", path)
    return path.rstrip("/") or "/"
